/**
 * The `Editor` contract behind the apply-patch tool: the model sends file operations carrying V4A
 * diffs and the host applies them. The shapes are the reference SDK's (`ApplyPatchOperation`,
 * `ApplyPatchResult`, `EditorInvocationContext`, `Editor`). `@baton/local-tools` ships
 * `LocalEditor` (confined to a folder) and `applyDiff`.
 */
import type { RunContextContract } from './runContext.js';

/** Create a file; every line of `diff` starts with `+`. */
export interface ApplyPatchOperationCreateFile {
  type: 'create_file';
  path: string;
  diff: string;
}

/** Change a file with V4A sections (`@@` anchors, ` ` / `-` / `+` lines); `moveTo` renames it too. */
export interface ApplyPatchOperationUpdateFile {
  type: 'update_file';
  path: string;
  diff: string;
  moveTo?: string;
}

/** Delete a file. */
export interface ApplyPatchOperationDeleteFile {
  type: 'delete_file';
  path: string;
}

export type ApplyPatchOperation = ApplyPatchOperationCreateFile | ApplyPatchOperationUpdateFile | ApplyPatchOperationDeleteFile;

/** What an editor operation reports to the model. Both fields are optional; `status` defaults to `completed`. */
export interface ApplyPatchResult {
  status?: 'completed' | 'failed';
  output?: string;
}

/** What the run passes to every editor operation. */
export interface EditorInvocationContext {
  runContext: RunContextContract;
}

/**
 * Applies the apply-patch tool's operations. Throwing (or returning `status: 'failed'`) reports
 * the failure to the model as the call's output.
 */
export interface Editor {
  createFile(operation: ApplyPatchOperationCreateFile, context?: EditorInvocationContext): Promise<ApplyPatchResult | void>;
  updateFile(operation: ApplyPatchOperationUpdateFile, context?: EditorInvocationContext): Promise<ApplyPatchResult | void>;
  deleteFile(operation: ApplyPatchOperationDeleteFile, context?: EditorInvocationContext): Promise<ApplyPatchResult | void>;
}
