import type { AgentInputItem, HandoffInputData, RunItem, RunItemType } from '@baton/core';

/** Protocol item types that belong to tool use (Baton's and the other kinds a reference history may hold). */
export const TOOL_INPUT_TYPES: ReadonlySet<string> = new Set([
  'function_call',
  'function_call_result',
  'tool_search_call',
  'tool_search_output',
  'computer_call',
  'computer_call_result',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'program',
  'program_output',
  'hosted_tool_call',
  'reasoning',
]);

/** Run item types that belong to tool use, handoffs, approvals and reasoning. */
export const TOOL_RUN_ITEM_TYPES: ReadonlySet<RunItemType> = new Set<RunItemType>([
  'tool_call_item',
  'tool_call_output_item',
  'handoff_call_item',
  'handoff_output_item',
  'tool_search_call_item',
  'tool_search_output_item',
  'tool_approval_item',
  'reasoning_item',
]);

/** The same data with its three lists replaced; the run context (and anything else) is kept. */
export function withItems(
  data: HandoffInputData,
  inputHistory: HandoffInputData['inputHistory'],
  preHandoffItems: RunItem[],
  newItems: RunItem[],
): HandoffInputData {
  return { ...data, inputHistory, preHandoffItems, newItems };
}

/** Keeps the input history's string form when it is a string; filters it when it is a list. */
export function filterHistory(
  history: HandoffInputData['inputHistory'],
  keep: (item: AgentInputItem) => boolean,
): HandoffInputData['inputHistory'] {
  return typeof history === 'string' ? history : history.filter(keep);
}

/** The input history as protocol items (a string is one user message). */
export function historyItems(history: HandoffInputData['inputHistory']): AgentInputItem[] {
  return typeof history === 'string' ? [{ type: 'message', role: 'user', content: history }] : history;
}

/** The protocol item a run item stands for in history (approval requests stand for nothing). */
export function protocolItemOf(item: RunItem): AgentInputItem | undefined {
  return item.type === 'tool_approval_item' ? undefined : item.rawItem;
}

export function isUserMessage(item: AgentInputItem): boolean {
  return (item.type === undefined || item.type === 'message') && (item as { role?: unknown }).role === 'user';
}

/** Whether a value has the shape core accepts back from a filter. */
export function isHandoffInputData(value: unknown): value is HandoffInputData {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as HandoffInputData;
  return (typeof data.inputHistory === 'string' || Array.isArray(data.inputHistory)) && Array.isArray(data.preHandoffItems) && Array.isArray(data.newItems);
}
