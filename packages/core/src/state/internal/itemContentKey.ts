import type { AgentInputItem } from '@baton/types';

/** An item's content as a key (items equal in content share it); undefined for one that cannot be serialized: it equals nothing but itself. */
export function itemContentKey(item: AgentInputItem): string | undefined {
  try {
    return JSON.stringify(item);
  } catch {
    return undefined;
  }
}
