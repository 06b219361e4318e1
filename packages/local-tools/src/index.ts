export { applyDiff, ApplyDiffError } from './applyDiff.js';
export { LocalShell, ShellAbortedError, DEFAULT_INHERITED_ENV, type LocalShellOptions } from './localShell.js';
export { LocalEditor, type LocalEditorOptions } from './localEditor.js';
export { LocalEditorError } from './localEditorError.js';
