/**
 * @baton/agents: everything under the names of `@openai/agents`, so a program written for it runs
 * against Baton by changing the import. The scripted model lives at `@baton/agents/testing`.
 */
export * from '@baton/core';
export * from '@baton/guardrails';
export {
  handoff,
  getHandoff,
  removeAllTools,
  removeReasoning,
  keepOnlyUserMessages,
  keepLastItems,
  summarizeHistory,
  composeInputFilters,
  RECOMMENDED_PROMPT_PREFIX,
  promptWithHandoffInstructions,
} from '@baton/handoffs';
export type {
  HandoffConfig,
  HandoffConfigWithInput,
  HandoffEnabledOption,
  HandoffInputType,
  InferHandoffInput,
  OnHandoffCallback,
  SummarizeHistoryOptions,
} from '@baton/handoffs';
