import type { AgentInputItem, ReasoningItemIdPolicy, RunItem } from '@baton/types';
import { runItemsToInputItems } from './items.js';

/**
 * A run's generated items as what continues the conversation (the next turn's input, `history`).
 * A shell call that is finished (`completed` / `incomplete`) and has no `shell_call_output` among
 * them cannot be continued: a hosted shell the provider ran without returning its output, which
 * the provider would refuse as a call without an answer. It is left out, with the reasoning item
 * that led to it (as `@openai/agents` does). A shell call still in progress (no status, or
 * `in_progress`) stays: the provider is still running it.
 */
export function continuationItems(items: readonly RunItem[], reasoningItemIdPolicy: ReasoningItemIdPolicy | undefined): AgentInputItem[] {
  return withoutOrphanShellCalls(runItemsToInputItems(items, reasoningItemIdPolicy));
}

export function withoutOrphanShellCalls(items: AgentInputItem[]): AgentInputItem[] {
  if (!items.some(isFinishedShellCall)) return items;
  const answered = new Set<string>();
  for (const item of items) if (item.type === 'shell_call_output') answered.add(item.callId);
  const dropped = new Set<number>();
  items.forEach((item, index) => {
    if (isFinishedShellCall(item) && !answered.has(item.callId)) dropped.add(index);
  });
  if (dropped.size === 0) return items;
  // A reasoning item whose next kept item is a dropped call goes with it (earlier reasoning in a
  // run of reasoning items leading to the call goes too).
  for (let index = items.length - 1; index >= 0; index -= 1) {
    if (items[index]!.type === 'reasoning' && dropped.has(index + 1)) dropped.add(index);
  }
  return items.filter((_item, index) => !dropped.has(index));
}

function isFinishedShellCall(item: AgentInputItem): item is Extract<AgentInputItem, { type: 'shell_call' }> {
  return item.type === 'shell_call' && item.status !== undefined && item.status !== 'in_progress';
}
