import { ApplyDiffError } from './applyDiffError.js';
import { applyEdits, placeSections } from './internal/v4aPlacement.js';
import { diffLines, parseCreateBody, parseSections } from './internal/v4aSections.js';

export { ApplyDiffError };

/**
 * Applies a headerless V4A diff (what the apply-patch tool sends in `operation.diff`) to a file's
 * content and returns the new content, as the reference's `applyDiff` does.
 *
 * - `mode: 'default'` patches existing content: `@@ anchor` lines narrow where a section applies,
 *   then ` ` / `-` lines must match the file (exactly, else ignoring trailing, else surrounding
 *   whitespace) and `+` lines are inserted. `*** End of File` pins a section to the file's end.
 *   The file's line ending (LF, or CRLF when every line ends so) is kept.
 * - `mode: 'create'` builds a new file: every line starts with `+`.
 *
 * Throws `ApplyDiffError` (naming the hunk) when the diff is malformed or does not apply.
 */
export function applyDiff(input: string, diff: string, mode: 'default' | 'create' = 'default'): string {
  const lines = diffLines(diff);
  if (mode === 'create') return parseCreateBody(lines);
  const lineEnding = lineEndingOf(input);
  const content = lineEnding === '\r\n' ? input.replaceAll('\r\n', '\n') : input;
  const fileLines = content.split('\n');
  const edits = placeSections(fileLines, parseSections(lines));
  return applyEdits(fileLines, edits).join(lineEnding);
}

/** CRLF when the text has line breaks and every one of them is CRLF; LF otherwise. */
function lineEndingOf(text: string): '\n' | '\r\n' {
  return text.includes('\n') && !/(^|[^\r])\n/.test(text) ? '\r\n' : '\n';
}
