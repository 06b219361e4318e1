import type { SharedV4ProviderMetadata, SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { ProviderData } from '@baton/types';
import { isPlainObject, isRecord } from './json.js';

/** The model an item came from, as the reference's adapter writes it: `'<provider>:<modelId>'`. */
export interface ModelIdentity {
  readonly provider: string;
  readonly modelId: string;
}

/** Keys of an item's `providerData` that describe the item, never sent back as provider options. */
const RESERVED = new Set(['model', 'responseId', 'response_id', 'aiSdkContent', 'citations', 'mediaType']);

export function modelIdentifier(model: ModelIdentity): string {
  return `${model.provider}:${model.modelId}`;
}

/**
 * An output item's `providerData`, in the reference's shape: `model` and `responseId` beside the
 * part's provider metadata (`{ anthropic: { signature } }`, `{ google: { thoughtSignature } }`),
 * whose namespaces are what the next request sends back as `providerOptions`.
 */
export function itemProviderData(model: ModelIdentity, responseId: string | undefined, metadata?: SharedV4ProviderMetadata, extra?: ProviderData): ProviderData {
  return { model: modelIdentifier(model), ...(responseId === undefined ? {} : { responseId }), ...metadata, ...extra };
}

/**
 * Whether an input item's `providerData` may be replayed to `model`: signatures and ids belong to
 * the model that produced them, so data stamped with another model is left out (the reference's
 * rule: the same `provider:modelId`, model id or provider). Unstamped data (written by hand) is sent.
 */
export function isFromModel(providerData: unknown, model: ModelIdentity): boolean {
  if (!isRecord(providerData) || typeof providerData.model !== 'string') return true;
  const stamp = providerData.model.toLowerCase();
  return stamp === modelIdentifier(model).toLowerCase() || stamp === model.modelId.toLowerCase() || stamp === model.provider.toLowerCase();
}

/**
 * The `providerOptions` for a prompt part: the provider namespaces (entries whose value is an
 * object) of each `providerData`, merged in order (later ones win per key inside a namespace).
 * Other keys (`model`, `responseId`, plain values) are bookkeeping and stay behind.
 */
export function providerOptionsOf(...sources: unknown[]): SharedV4ProviderOptions | undefined {
  let out: SharedV4ProviderOptions | undefined;
  for (const source of sources) {
    if (!isRecord(source)) continue;
    for (const [key, value] of Object.entries(source)) {
      if (RESERVED.has(key) || !isPlainObject(value)) continue;
      out ??= {};
      out[key] = { ...out[key], ...(value as SharedV4ProviderOptions[string]) };
    }
  }
  return out;
}

/** Provider metadata merged per namespace (a stream sends a part's metadata in pieces: start, deltas, end). */
export function mergeMetadata(base: SharedV4ProviderMetadata | undefined, next: SharedV4ProviderMetadata | undefined): SharedV4ProviderMetadata | undefined {
  if (next === undefined) return base;
  if (base === undefined) return { ...next };
  const out: SharedV4ProviderMetadata = { ...base };
  for (const [key, value] of Object.entries(next)) out[key] = isPlainObject(out[key]) && isPlainObject(value) ? { ...out[key], ...value } : value;
  return out;
}
