import type { RequestUsageData, UsageData } from '@baton/types';
import { isRecord } from './json.js';

/**
 * Responses API usage: input / output tokens, cached input tokens and reasoning tokens, with the
 * request's own entry (`requestUsageEntries`, endpoint `responses.create`), as the reference
 * records it, so `usage.requestUsageEntries[].endpoint` says which API each request used.
 */
export function responsesUsage(usage: unknown): UsageData {
  const data = isRecord(usage)
    ? usageData(usage.input_tokens, usage.output_tokens, usage.total_tokens, usage.input_tokens_details, usage.output_tokens_details)
    : { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const entry: RequestUsageData = { inputTokens: data.inputTokens ?? 0, outputTokens: data.outputTokens ?? 0, totalTokens: data.totalTokens ?? 0, endpoint: 'responses.create' };
  if (isRecord(data.inputTokensDetails)) entry.inputTokensDetails = { ...data.inputTokensDetails };
  if (isRecord(data.outputTokensDetails)) entry.outputTokensDetails = { ...data.outputTokensDetails };
  return { ...data, requestUsageEntries: [entry] };
}

/**
 * Chat Completions usage, in the same shape (`prompt_tokens` become input tokens), with the
 * reference's details: cached input tokens and reasoning tokens, 0 when not reported.
 */
export function chatUsage(usage: unknown): UsageData {
  if (!isRecord(usage)) return { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const data = usageData(usage.prompt_tokens, usage.completion_tokens, usage.total_tokens, undefined, undefined);
  const inDetails = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const outDetails = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  data.inputTokensDetails = { cached_tokens: count(inDetails.cached_tokens) };
  data.outputTokensDetails = { reasoning_tokens: count(outDetails.reasoning_tokens) };
  return data;
}

function usageData(input: unknown, output: unknown, total: unknown, inputDetails: unknown, outputDetails: unknown): UsageData {
  const inputTokens = count(input);
  const outputTokens = count(output);
  const data: UsageData = { requests: 1, inputTokens, outputTokens, totalTokens: typeof total === 'number' ? total : inputTokens + outputTokens };
  const inDetails = numbers(inputDetails);
  const outDetails = numbers(outputDetails);
  if (inDetails !== undefined) data.inputTokensDetails = inDetails;
  if (outDetails !== undefined) data.outputTokensDetails = outDetails;
  return data;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The numeric fields of a details object (`cached_tokens`, `reasoning_tokens`, ...), names kept. */
function numbers(value: unknown): Record<string, number> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, number> = {};
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'number') out[key] = entry;
  return Object.keys(out).length > 0 ? out : undefined;
}
