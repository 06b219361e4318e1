import { UserError } from '@baton/types';
import type { AiSdkLanguageModel, AiSdkSpecificationVersion } from '../languageModel.js';
import { isRecord } from './json.js';

const SUPPORTED_TEXT = 'Only v2, v3, and v4 are supported.';

/**
 * The specification a model speaks, normalised: `v2`, `v3` or `v4` (a `v3` / `v4` with a suffix
 * counts as its major), `undefined` for anything else. A model object without
 * `specificationVersion` is an AI SDK 5 era wrapper and reads as `v2`, as in the reference.
 */
export function specOf(model: unknown): AiSdkSpecificationVersion | undefined {
  const version = isRecord(model) || typeof model === 'function' ? (model as { specificationVersion?: unknown }).specificationVersion : undefined;
  if (version === undefined || version === null || version === '') return 'v2';
  if (typeof version !== 'string') return undefined;
  const lower = version.toLowerCase();
  if (lower === 'v2') return 'v2';
  if (lower.startsWith('v3')) return 'v3';
  if (lower.startsWith('v4')) return 'v4';
  return undefined;
}

/**
 * Checks that `value` is an AI SDK language model of a specification this package speaks (v2, v3
 * or v4) and returns it typed. Anything else is a `UserError` that names what was received: the
 * specification version and provider of an older or newer model, or the `typeof` of something else.
 */
export function checkLanguageModel(value: unknown, where: string): AiSdkLanguageModel {
  if (!isRecord(value) && typeof value !== 'function') {
    const hint = typeof value === 'string' ? ` (the string ${JSON.stringify(value)}: pass a model object such as anthropic(${JSON.stringify(value)}))` : '';
    throw new UserError(`${where} expects an AI SDK language model (specificationVersion 'v2', 'v3' or 'v4'); received ${describeType(value)}${hint}.`);
  }
  const model = value as Record<string, unknown>;
  const provider = typeof model.provider === 'string' ? ` from provider '${model.provider}'` : '';
  const spec = specOf(model);
  if (spec === undefined) {
    throw new UserError(`Unsupported AI SDK specificationVersion: ${String(model.specificationVersion)}. ${SUPPORTED_TEXT} (${where} received it${provider}; AI SDK 5, 6 and 7 provider packages speak v2, v3 and v4.)`);
  }
  if (typeof model.doGenerate !== 'function' && typeof model.doStream !== 'function') {
    const hint = typeof model.getResponse === 'function' ? ' (it looks like a Baton Model already: give it to the agent as it is)' : '';
    throw new UserError(`${where} expects an AI SDK language model; received ${describeType(value)}${provider} with neither doGenerate nor doStream${hint}.`);
  }
  if (typeof model.provider !== 'string' || typeof model.modelId !== 'string') {
    throw new UserError(`${where}: the ${spec} language model has no string provider / modelId.`);
  }
  return value as AiSdkLanguageModel;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a value of typeof '${typeof value}'`;
}
