import { UserError } from '@baton/types';
import type { AiSdkLanguageModel } from '../languageModel.js';
import { isRecord } from './json.js';

const SUPPORTED = ['v3', 'v4'] as const;

/**
 * Checks that `value` is an AI SDK language model of a specification this package speaks (v3 or
 * v4) and returns it typed. Anything else is a `UserError` that names what was received: the
 * specification version and provider of an older model, or the `typeof` of something else.
 */
export function checkLanguageModel(value: unknown, where: string): AiSdkLanguageModel {
  if (!isRecord(value) && typeof value !== 'function') {
    const hint = typeof value === 'string' ? ` (the string ${JSON.stringify(value)}: pass a model object such as anthropic(${JSON.stringify(value)}))` : '';
    throw new UserError(`${where} expects an AI SDK language model (specificationVersion 'v3' or 'v4'); received ${describeType(value)}${hint}.`);
  }
  const model = value as Record<string, unknown>;
  const version = model.specificationVersion;
  const provider = typeof model.provider === 'string' ? ` from provider '${model.provider}'` : '';
  if (version === undefined) {
    const hint = typeof model.getResponse === 'function' ? ' (it looks like a Baton Model already: give it to the agent as it is)' : '';
    throw new UserError(
      `${where} expects an AI SDK language model (specificationVersion 'v3' or 'v4'); received ${describeType(value)} without specificationVersion${provider}${hint}.`,
    );
  }
  if (!SUPPORTED.includes(version as never)) {
    const upgrade = version === 'v2' || version === 'v1' ? ' (AI SDK 5 or older: upgrade the provider package to AI SDK 6 or 7)' : '';
    throw new UserError(
      `${where} supports AI SDK language models of specificationVersion 'v3' and 'v4'; received specificationVersion ${JSON.stringify(version)}${provider}${upgrade}.`,
    );
  }
  const missing = ['doGenerate', 'doStream'].filter((name) => typeof model[name] !== 'function');
  if (missing.length > 0) {
    throw new UserError(`${where}: the ${String(version)} language model${provider} has no ${missing.join(' / ')} function.`);
  }
  if (typeof model.provider !== 'string' || typeof model.modelId !== 'string') {
    throw new UserError(`${where}: the ${String(version)} language model has no string provider / modelId.`);
  }
  return value as AiSdkLanguageModel;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a value of typeof '${typeof value}'`;
}
