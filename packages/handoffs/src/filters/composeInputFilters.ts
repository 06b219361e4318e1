import { UserError, type HandoffInputData, type HandoffInputFilter } from '@baton/core';
import { isHandoffInputData } from '../internal/items.js';
import { typeName } from '@baton/core/internal';

/** One filter that applies `filters` left to right, each receiving what the previous one returned. */
export function composeInputFilters(...filters: HandoffInputFilter[]): HandoffInputFilter {
  filters.forEach((filter, i) => {
    if (typeof filter !== 'function') throw new UserError(`composeInputFilters(): filter ${i} must be a function, got ${typeName(filter)}.`);
  });
  return async (data: HandoffInputData): Promise<HandoffInputData> => {
    let current = data;
    for (const [i, filter] of filters.entries()) {
      const next: unknown = await filter(current);
      if (!isHandoffInputData(next)) {
        throw new UserError(`composeInputFilters(): filter ${i} must return HandoffInputData ({ inputHistory, preHandoffItems, newItems }).`);
      }
      current = next;
    }
    return current;
  };
}
