import type { UsageData } from '@baton/types';
import { isRecord } from './json.js';

/** Responses API usage: input / output tokens, cached input tokens and reasoning tokens. */
export function responsesUsage(usage: unknown): UsageData {
  if (!isRecord(usage)) return { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  return usageData(usage.input_tokens, usage.output_tokens, usage.total_tokens, usage.input_tokens_details, usage.output_tokens_details);
}

/** Chat Completions usage, in the same shape (`prompt_tokens` become input tokens). */
export function chatUsage(usage: unknown): UsageData {
  if (!isRecord(usage)) return { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  return usageData(usage.prompt_tokens, usage.completion_tokens, usage.total_tokens, usage.prompt_tokens_details, usage.completion_tokens_details);
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
