import type { AgentInputItem } from '@baton/types';

/** Calls whose result is a separate item, by the call item's type. */
const CALL_TYPES = new Set(['function_call', 'computer_call', 'shell_call', 'apply_patch_call', 'tool_search_call']);
/** Results that answer a call, by the result item's type. */
const RESULT_TYPES = new Set(['function_call_result', 'computer_call_result', 'shell_call_output', 'apply_patch_call_output', 'tool_search_output']);
/** Items that must stay before what follows from them: calls, reasoning, compaction, hosted calls. */
const PRECURSOR_TYPES = new Set([...CALL_TYPES, 'reasoning', 'compaction', 'hosted_tool_call']);

/**
 * A `callModelInputFilter` may hand back the same provider item twice (an old and a new version of
 * one call, say). The model gets each once, with its latest content, in an order it can follow:
 * a call, reasoning or compaction item keeps its first place (so it stays before its output), any
 * other identified item (an output) its last place. Messages and items without a provider
 * identity are left as they are. The reference normalizes the filter's input the same way.
 */
export function dedupeFilteredInput(items: readonly AgentInputItem[]): AgentInputItem[] {
  const latest = new Map<string, AgentInputItem>();
  const place = new Map<string, number>();
  items.forEach((item, index) => {
    const key = identityOf(item);
    if (key === undefined) return;
    latest.set(key, item);
    if (!place.has(key) || !PRECURSOR_TYPES.has((item as { type: string }).type)) place.set(key, index);
  });
  if (latest.size === 0) return [...items];
  const kept: AgentInputItem[] = [];
  items.forEach((item, index) => {
    const key = identityOf(item);
    if (key === undefined) kept.push(item);
    else if (place.get(key) === index) kept.push(latest.get(key)!);
  });
  return kept;
}

/** The provider identity of an item: its call id for calls and results, else its id; none for messages. */
function identityOf(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { type, role, callId, id } = item as { type?: unknown; role?: unknown; callId?: unknown; id?: unknown };
  if (typeof role === 'string' || type === 'message' || typeof type !== 'string') return undefined;
  if (typeof callId === 'string' && callId !== '') {
    if (CALL_TYPES.has(type)) return JSON.stringify(['call', type, callId]);
    if (RESULT_TYPES.has(type)) return JSON.stringify(['result', type, callId]);
  }
  if (typeof id === 'string' && id !== '') return JSON.stringify(['item', type, id]);
  return undefined;
}
