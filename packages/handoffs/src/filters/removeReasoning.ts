import type { HandoffInputData } from '@baton/core';
import { filterHistory, withItems } from '../internal/items.js';

/** A handoff input filter that drops reasoning items, so the next agent does not see the previous one's reasoning. */
export function removeReasoning(data: HandoffInputData): HandoffInputData {
  return withItems(
    data,
    filterHistory(data.inputHistory, (item) => item.type !== 'reasoning'),
    data.preHandoffItems.filter((item) => item.type !== 'reasoning_item'),
    data.newItems.filter((item) => item.type !== 'reasoning_item'),
  );
}
