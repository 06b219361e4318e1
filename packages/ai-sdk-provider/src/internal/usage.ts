import type { UsageData } from '@baton/types';
import { isPlainObject, isRecord } from './json.js';

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

/**
 * A detached copy of a usage object as the provider sent it: plain objects, arrays and JSON values
 * only. Anything else (a class instance, a cycle, a function) cannot be kept faithfully: `undefined`.
 */
export function snapshotUsage(usage: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(usage) || !plainData(usage, new Set())) return undefined;
  return JSON.parse(JSON.stringify(usage)) as Record<string, unknown>;
}

function plainData(value: unknown, seen: Set<object>): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'undefined') return true;
  if (typeof value === 'number') return true;
  if (typeof value !== 'object' || seen.has(value)) return false;
  if (!Array.isArray(value) && !isPlainObject(value)) return false;
  seen.add(value);
  const ok = Object.values(value).every((entry) => plainData(entry, seen));
  seen.delete(value);
  return ok;
}
