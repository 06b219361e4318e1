import type { UsageData } from '@baton/types';
import { isRecord } from './json.js';

/**
 * A v3 / v4 usage object as Baton usage. Both specs report
 * `inputTokens: { total, noCache, cacheRead, cacheWrite }` and `outputTokens: { total, text, reasoning }`
 * (the flat numbers of v2 are read too, for models that still send them). Details use the
 * reference's names: `cached_tokens`, `cache_write_tokens`, `reasoning_tokens`, `text_tokens`.
 */
export function usageOf(usage: unknown): UsageData {
  if (!isRecord(usage)) return { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const input = usage.inputTokens;
  const output = usage.outputTokens;
  const inputTokens = isRecord(input) ? count(input.total) : count(input);
  const outputTokens = isRecord(output) ? count(output.total) : count(output);
  const data: UsageData = { requests: 1, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (!isRecord(input) && typeof usage.totalTokens === 'number' && Number.isFinite(usage.totalTokens)) data.totalTokens = usage.totalTokens;
  const inputDetails = details({
    cached_tokens: isRecord(input) ? input.cacheRead : usage.cachedInputTokens,
    cache_write_tokens: isRecord(input) ? input.cacheWrite : undefined,
  });
  const outputDetails = details({
    reasoning_tokens: isRecord(output) ? output.reasoning : usage.reasoningTokens,
    text_tokens: isRecord(output) ? output.text : undefined,
  });
  if (inputDetails !== undefined) data.inputTokensDetails = inputDetails;
  if (outputDetails !== undefined) data.outputTokensDetails = outputDetails;
  return data;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function details(values: Record<string, unknown>): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(values)) if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A detached, JSON-safe copy of a usage object as the provider sent it (`undefined` when it cannot be copied). */
export function snapshotUsage(usage: unknown): Record<string, unknown> | undefined {
  if (!isRecord(usage)) return undefined;
  try {
    return JSON.parse(JSON.stringify(usage)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
