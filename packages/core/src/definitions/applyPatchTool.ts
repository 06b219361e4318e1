import {
  UserError,
  type ApplyPatchApprovalFunction,
  type ApplyPatchCallItem,
  type ApplyPatchOnApprovalFunction,
  type ApplyPatchTool,
  type ApplyPatchToolCustomDataExtractor,
  type Editor,
  type ToolAllowedCallers,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
} from '@baton/types';
import { approvalPredicate } from './internal/approvalPredicate.js';
import { checkedAllowedCallers } from './internal/allowedCallers.js';
import { checkedToolGuardrails } from './internal/toolGuardrailLists.js';
import { requireFunction } from './internal/validate.js';

export interface ApplyPatchToolOptions {
  /** The name the model calls the tool by (`apply_patch` by default). */
  name?: string;
  /** Applies the operations (`LocalEditor` from `@baton/local-tools`, or your own). */
  editor: Editor;
  /** `true`, or a function of the operation: the run pauses until a human approves the patch. */
  needsApproval?: boolean | ApplyPatchApprovalFunction;
  /** Decides a needed approval in code instead of pausing. */
  onApproval?: ApplyPatchOnApprovalFunction;
  allowedCallers?: ToolAllowedCallers;
  /** Checks of each call before the editor applies it (after its approval); `rejectContent` answers the model instead. Baton only. */
  inputGuardrails?: ToolInputGuardrail<any, ApplyPatchCallItem>[];
  /** Checks of the editor's message before the model sees it; `rejectContent` replaces it. Baton only. */
  outputGuardrails?: ToolOutputGuardrail<any, ApplyPatchCallItem>[];
  /** Attaches data of your own to each applied operation's output item (`RunToolCallOutputItem.customData`); called before `agent_tool_end`. */
  customDataExtractor?: ApplyPatchToolCustomDataExtractor;
}

/**
 * The apply-patch tool (the reference's `applyPatchTool`): the model sends one file operation per
 * call (create, update with a V4A diff, delete) and the `Editor` applies it. What the editor
 * returns, or the message of what it threw (a patch that does not apply), is the model's answer:
 * a failed operation is an error to the model, not to the run. With `needsApproval` a run pauses
 * on each call (the approval item's `rawItem.operation` is the patch).
 */
export function applyPatchTool(options: ApplyPatchToolOptions): ApplyPatchTool {
  const editor = options.editor;
  if (!editor || typeof editor !== 'object') throw new UserError('applyPatchTool requires an editor (an Editor such as LocalEditor).');
  const name = options.name ?? 'apply_patch';
  const allowedCallers = checkedAllowedCallers(options.allowedCallers, name);
  return {
    type: 'apply_patch',
    name,
    editor,
    needsApproval: approvalPredicate<ApplyPatchApprovalFunction>(options.needsApproval, 'applyPatchTool'),
    onApproval: options.onApproval,
    ...(allowedCallers ? { allowedCallers } : {}),
    ...checkedToolGuardrails(`applyPatchTool "${name}"`, options),
    ...(options.customDataExtractor !== undefined
      ? { customDataExtractor: requireFunction(options.customDataExtractor, `applyPatchTool "${name}": \`customDataExtractor\``) }
      : {}),
  };
}
