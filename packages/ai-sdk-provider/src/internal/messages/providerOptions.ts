import { isObject, targetIdentifier, type ModelTarget } from './modelTarget.js';

/**
 * An item's `providerData` as the `providerOptions` of the prompt part made from it, the
 * reference's rule: everything but the bookkeeping keys (`model`, `responseId`), and nothing when
 * the data was stamped by another model (signatures belong to the model that made them). For Gemini
 * models a loose `thoughtSignature` moves under `google`, where the provider reads it.
 */
export function providerOptionsFor(providerData: unknown, model: ModelTarget): Record<string, unknown> {
  if (!isObject(providerData) || !stampedFor(providerData, model)) return {};
  const { model: _model, responseId: _responseId, response_id: _responseIdSnake, ...options } = providerData as Record<string, unknown>;
  if (!isGemini(model)) return options;
  const google: Record<string, unknown> = isObject(options.google) ? { ...options.google } : {};
  const signature = google.thoughtSignature ?? google.thought_signature ?? options.thoughtSignature ?? options.thought_signature;
  if (signature) google.thoughtSignature = signature;
  if (Object.keys(google).length > 0) options.google = google;
  delete options.thoughtSignature;
  delete options.thought_signature;
  return options;
}

/** Unstamped data (written by hand) goes to any model; stamped data only to the model (`provider:modelId`, model id or provider) it names. */
function stampedFor(providerData: Record<string, unknown>, model: ModelTarget): boolean {
  if (typeof providerData.model !== 'string') return true;
  const stamp = providerData.model.toLowerCase();
  return stamp === targetIdentifier(model).toLowerCase() || stamp === model.modelId.toLowerCase() || stamp === model.provider.toLowerCase();
}

function isGemini(model: ModelTarget): boolean {
  return targetIdentifier(model).toLowerCase().includes('gemini');
}
