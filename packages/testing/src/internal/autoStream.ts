import type { ModelResponse, ModelStreamEvent, UsageData } from '@baton/types';
import type { Usage } from '@baton/types';
import { detach } from './detach.js';

/**
 * A response as normalized stream events: `response_started`, one `output_text_delta` per
 * `output_text` part of each assistant message (with the message's id as `itemId`, and the part's
 * provider data), then `response_done` with the whole response. Every event is a fresh copy, so a
 * consumer that changes one changes no other. `beforeEach` runs before every event (the abort check).
 */
export function* autoStream(response: ModelResponse & { rawUsage?: unknown }, beforeEach: () => void): Generator<ModelStreamEvent> {
  beforeEach();
  yield { type: 'response_started' };
  for (const item of response.output) {
    // A message may be written without `type` (role only), as input items may.
    if ((item.type !== 'message' && item.type !== undefined) || item.role !== 'assistant' || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (part.type !== 'output_text') continue;
      const delta: ModelStreamEvent = { type: 'output_text_delta', delta: part.text };
      if (item.id !== undefined) delta.itemId = item.id;
      if (part.providerData !== undefined) delta.providerData = part.providerData;
      beforeEach();
      yield detach(delta);
    }
  }
  beforeEach();
  const done = {
    type: 'response_done' as const,
    response: {
      id: response.responseId ?? 'scripted-response',
      usage: usageData(response.usage as Usage),
      output: response.output,
      ...(response.requestId === undefined ? {} : { requestId: response.requestId }),
      ...(response.rawUsage === undefined ? {} : { rawUsage: response.rawUsage }),
      ...(response.providerData === undefined ? {} : { providerData: response.providerData }),
    },
  };
  yield detach(done);
}

function usageData(usage: Usage): UsageData {
  const data: UsageData = { requests: usage.requests, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens: usage.totalTokens };
  if (usage.inputTokensDetails.length > 0) data.inputTokensDetails = usage.inputTokensDetails;
  if (usage.outputTokensDetails.length > 0) data.outputTokensDetails = usage.outputTokensDetails;
  if (usage.requestUsageEntries) data.requestUsageEntries = usage.requestUsageEntries.map((entry) => ({ ...entry }));
  return data;
}
