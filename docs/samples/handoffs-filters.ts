import { Agent } from '@baton/core';
import { composeInputFilters, handoff, keepLastItems, removeReasoning, summarizeHistory } from '@baton/handoffs';

const specialist = new Agent({ name: 'Specialist', model: 'gpt-4.1' });
const summarizer = new Agent({ name: 'Summarizer', instructions: 'Summarize the conversation in three lines.', model: 'gpt-4.1-mini' });

// What the next agent sees: filters compose left to right.
export const toSpecialist = handoff(specialist, {
  inputFilter: composeInputFilters(removeReasoning, keepLastItems(10)),
});

// Or hand over a summary instead of the whole history.
export const toSpecialistWithSummary = handoff(specialist, {
  toolNameOverride: 'escalate',
  inputFilter: summarizeHistory(summarizer),
});
