export { handoff } from './handoff.js';
export type {
  HandoffConfig,
  HandoffConfigWithInput,
  HandoffEnabledOption,
  HandoffEnabledPredicate,
  HandoffInputType,
  InferHandoffInput,
  OnHandoffCallback,
} from './handoff.js';
export { getHandoff } from './getHandoff.js';
export { removeAllTools } from './filters/removeAllTools.js';
export { removeReasoning } from './filters/removeReasoning.js';
export { keepOnlyUserMessages } from './filters/keepOnlyUserMessages.js';
export { keepLastItems } from './filters/keepLastItems.js';
export { summarizeHistory, type SummarizeHistoryOptions } from './filters/summarizeHistory.js';
export { composeInputFilters } from './filters/composeInputFilters.js';
export { RECOMMENDED_PROMPT_PREFIX, promptWithHandoffInstructions } from './handoffPrompt.js';
export { Handoff, getTransferMessage, isHandoff } from '@baton/core';
export type { HandoffContract, HandoffEnabledFunction, HandoffInputData, HandoffInputFilter } from '@baton/core';
