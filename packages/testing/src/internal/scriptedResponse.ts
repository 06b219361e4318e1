import { Usage, type AgentOutputItem, type ModelResponse } from '@baton/types';
import { InvalidScriptedModelStepError } from '../scriptedModelErrors.js';
import type { RecordedModelCall, ScriptedModelResponse } from '../scriptedCall.js';
import { detach } from './detach.js';
import { jsonObjectCopy } from './rawUsage.js';

/** A response as a provider may return it: with the provider's own usage object, kept only on request. */
type ResponseWithRawUsage = ModelResponse & { rawUsage?: unknown };

/** A complete response needs an output list and a `Usage` instance; the output-list shorthand is always valid. */
export function validateResponse(response: unknown, at: { inputIndex: number } | { callIndex: number }): void {
  if (Array.isArray(response)) return;
  const candidate = response as Partial<ModelResponse> | null;
  if (typeof candidate === 'object' && candidate !== null && Array.isArray(candidate.output) && candidate.usage instanceof Usage) return;
  const where =
    'callIndex' in at
      ? `The responder of ScriptedModel call #${at.callIndex + 1} returned`
      : `ScriptedModel input #${at.inputIndex + 1} is`;
  throw new InvalidScriptedModelStepError({
    reason: 'invalid_response',
    ...at,
    message: `${where} not a valid response: a response needs an \`output\` array and a \`usage\` that is a \`Usage\` instance (or script the output list alone).`,
  });
}

/**
 * A copy of a scripted response taken when it is queued: output, usage and provider data are new
 * objects. A `rawUsage` accessor is copied as an accessor (not read until a call asks for it).
 */
export function snapshotResponse(response: ScriptedModelResponse): ScriptedModelResponse {
  if (Array.isArray(response)) return detach(response);
  const copy: ResponseWithRawUsage = { output: detach(response.output), usage: copyUsage(response.usage as Usage) };
  if (response.responseId !== undefined) copy.responseId = response.responseId;
  if (response.requestId !== undefined) copy.requestId = response.requestId;
  if (response.providerData !== undefined) copy.providerData = detach(response.providerData);
  const rawUsage = Object.getOwnPropertyDescriptor(response, 'rawUsage');
  if (rawUsage) Object.defineProperty(copy, 'rawUsage', 'value' in rawUsage ? { ...rawUsage, value: detach(rawUsage.value) } : rawUsage);
  return copy;
}

function copyUsage(usage: Usage): Usage {
  return new Usage({
    requests: usage.requests,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    inputTokensDetails: detach(usage.inputTokensDetails),
    outputTokensDetails: detach(usage.outputTokensDetails),
    requestUsageEntries: usage.requestUsageEntries?.map((entry) => detach({ ...entry })),
  });
}

/**
 * The response a call returns. The output-list shorthand becomes one request of usage with the id
 * `scripted-response-<call number>`; a complete response keeps its usage and gets that id only when
 * it has none. `rawUsage` is kept (as a detached JSON copy, read once) only when the call's
 * `modelSettings.preserveRawUsage` is `true`; otherwise, or when it cannot be read or is not JSON,
 * it is left out.
 */
export function responseForCall(response: unknown, call: RecordedModelCall): ResponseWithRawUsage {
  validateResponse(response, { callIndex: call.index });
  const fallbackId = `scripted-response-${call.index + 1}`;
  if (Array.isArray(response)) return { output: response as AgentOutputItem[], usage: new Usage({ requests: 1 }), responseId: fallbackId };
  const full = response as ResponseWithRawUsage;
  const hasRawUsage = 'rawUsage' in full;
  if (full.responseId !== undefined && !hasRawUsage) return full;
  const out: ResponseWithRawUsage = { output: full.output, usage: full.usage };
  for (const key of Object.keys(full)) if (key !== 'rawUsage') Object.assign(out, { [key]: full[key as keyof ModelResponse] });
  out.responseId = full.responseId ?? fallbackId;
  const rawUsage = hasRawUsage && preservesRawUsage(call) ? readRawUsage(full) : undefined;
  if (rawUsage !== undefined) out.rawUsage = rawUsage;
  return out;
}

function preservesRawUsage(call: RecordedModelCall): boolean {
  return (call.request.modelSettings as { preserveRawUsage?: unknown }).preserveRawUsage === true;
}

function readRawUsage(response: ResponseWithRawUsage): Record<string, unknown> | undefined {
  try {
    return jsonObjectCopy(response.rawUsage);
  } catch {
    return undefined; // a throwing accessor: the usage is unavailable, the response is not
  }
}
