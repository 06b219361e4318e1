import type { ApplyPatchCallItem, ComputerUseCallItem, FunctionCallItem, ShellCallItem } from '@baton/types';
import { parseArguments, textOf } from './subjects.js';

/**
 * The calls a ready-made tool guardrail can guard: a function tool's, and the local tools' (shell,
 * apply-patch, computer), whose guardrails receive the call itself.
 */
export type GuardedToolCall = FunctionCallItem | ShellCallItem | ApplyPatchCallItem | ComputerUseCallItem;

/**
 * What a check reads of a tool call: a function call's parsed arguments; a shell call's commands
 * (one a line); a patch's path, new path and diff; a computer call's actions (the text it types and
 * the keys it presses as they are, the rest as JSON).
 */
export function toolCallSubject(call: GuardedToolCall): { value: unknown; text: string } {
  switch (call.type) {
    case 'shell_call':
      return { value: call.action, text: call.action.commands.join('\n') };
    case 'apply_patch_call': {
      const { operation } = call;
      const parts = [operation.path, 'moveTo' in operation ? operation.moveTo : undefined, 'diff' in operation ? operation.diff : undefined];
      return { value: operation, text: parts.filter((part): part is string => typeof part === 'string' && part !== '').join('\n') };
    }
    case 'computer_call': {
      const actions = call.actions ?? (call.action ? [call.action] : []);
      return { value: actions, text: actions.map(actionText).join('\n') };
    }
    default:
      return { value: parseArguments(call.arguments), text: call.arguments };
  }
}

function actionText(action: NonNullable<ComputerUseCallItem['action']>): string {
  if (action.type === 'type') return action.text;
  if (action.type === 'keypress') return action.keys.join('+');
  return textOf(action);
}

/**
 * The text a check reads of a tool's output: a shell call's stdout and stderr (one a line, per
 * command), nothing of a computer call's screenshot (an image has no text to check), anything
 * else as it is (JSON for non-strings).
 */
export function toolOutputText(call: GuardedToolCall | undefined, output: unknown): string {
  if (call?.type === 'computer_call') return '';
  if (call?.type === 'shell_call' && Array.isArray(output)) {
    return output
      .flatMap((entry: { stdout?: unknown; stderr?: unknown }) => [entry?.stdout, entry?.stderr])
      .filter((text): text is string => typeof text === 'string' && text !== '')
      .join('\n');
  }
  return textOf(output);
}
