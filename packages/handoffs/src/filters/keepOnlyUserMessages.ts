import type { HandoffInputData } from '@baton/core';
import { filterHistory, isUserMessage, withItems } from '../internal/items.js';

/**
 * A handoff input filter that leaves the next agent only what the user said: the user messages of
 * the input history (a string input is kept as it is). Everything the previous agents generated,
 * including this turn's handoff items, is dropped.
 */
export function keepOnlyUserMessages(data: HandoffInputData): HandoffInputData {
  return withItems(data, filterHistory(data.inputHistory, isUserMessage), [], []);
}
