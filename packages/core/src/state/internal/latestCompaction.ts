import type { AgentInputItem } from '@baton/types';

/**
 * A conversation from its latest `compaction` item on: the compaction stands for everything before
 * it, so nothing earlier is sent again (as the reference trims a turn's input).
 */
export function fromLatestCompaction(items: AgentInputItem[]): AgentInputItem[] {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    if (items[index]!.type === 'compaction') return index === 0 ? items : items.slice(index);
  }
  return items;
}
