import type { FunctionTool, RunMessageOutputItem, RunToolApprovalItem, RunToolCallOutputItem } from '@baton/types';

/**
 * What one tool call of a turn came to: its output (a function tool's, or a local tool's with
 * `tool` undefined; `followUp` enters history right after it), an approval to wait for, or a
 * nested run's approvals (an agent tool paused).
 */
export type ToolRunOutcome =
  | {
      readonly type: 'output';
      readonly tool: FunctionTool<any> | undefined;
      readonly output: unknown;
      readonly item: RunToolCallOutputItem;
      readonly followUp?: RunMessageOutputItem;
    }
  | { readonly type: 'approval'; readonly item: RunToolApprovalItem }
  | { readonly type: 'nested_interruption'; readonly interruptions: RunToolApprovalItem[] };
