import type { AgentInputItem } from '@baton/types';
import { itemContentKey } from './itemContentKey.js';

/**
 * What a run keeps in its session as its new input when a `sessionInputCallback` combined the
 * history and the new input: every item of the callback's answer that is not history, so an item
 * the callback rewrote (a redaction) is saved as rewritten and an item it dropped is not saved.
 * History is recognised as the reference does: the very objects the callback was given first, then
 * items equal to a history item not yet matched (a callback that copies history keeps it history).
 */
export function sessionInputItems(combined: readonly AgentInputItem[], history: readonly AgentInputItem[]): AgentInputItem[] {
  const historyObjects = new Set<AgentInputItem>(history);
  const unmatchedHistory = new Map<string, number>();
  for (const item of history) {
    const key = itemContentKey(item);
    if (key !== undefined) unmatchedHistory.set(key, (unmatchedHistory.get(key) ?? 0) + 1);
  }
  // Objects first: a history object consumes its key so an equal copy elsewhere is judged on the rest.
  for (const item of combined) {
    if (!historyObjects.has(item)) continue;
    const key = itemContentKey(item);
    if (key !== undefined) unmatchedHistory.set(key, (unmatchedHistory.get(key) ?? 0) - 1);
  }
  const appended: AgentInputItem[] = [];
  for (const item of combined) {
    if (historyObjects.has(item)) continue;
    const key = itemContentKey(item);
    const remaining = key === undefined ? 0 : (unmatchedHistory.get(key) ?? 0);
    if (key !== undefined && remaining > 0) {
      unmatchedHistory.set(key, remaining - 1);
      continue;
    }
    appended.push(item);
  }
  return appended;
}
