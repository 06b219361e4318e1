import type { HandoffInputData } from '@baton/core';
import { TOOL_INPUT_TYPES, TOOL_RUN_ITEM_TYPES, filterHistory, withItems } from '../internal/items.js';

/**
 * A handoff input filter that leaves the next agent the conversation without tool use: tool calls
 * and outputs, handoff calls and outputs, approval requests and reasoning are removed from the input
 * history, the items before the handoff and this turn's items. Messages stay.
 */
export function removeAllTools(data: HandoffInputData): HandoffInputData {
  return withItems(
    data,
    filterHistory(data.inputHistory, (item) => !TOOL_INPUT_TYPES.has(item.type ?? '')),
    data.preHandoffItems.filter((item) => !TOOL_RUN_ITEM_TYPES.has(item.type)),
    data.newItems.filter((item) => !TOOL_RUN_ITEM_TYPES.has(item.type)),
  );
}
