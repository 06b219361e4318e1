import type { LanguageModelV3GenerateResult, LanguageModelV4GenerateResult, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import { Usage, type ModelResponse, type ProviderData } from '@baton/types';
import { blocksOfContent, outputItems, type FinishInfo } from './content.js';
import { requestIdOf } from './headers.js';
import { modelIdentifier, type ModelIdentity } from './providerData.js';
import type { ToolSearchTarget } from './toolSearchOutput.js';
import { usageOf } from './usage.js';

export type GenerateResult = LanguageModelV4GenerateResult | LanguageModelV3GenerateResult;

/** A `doGenerate` result (v3 or v4) as a Baton `ModelResponse`. */
export function responseOf(result: GenerateResult, model: ModelIdentity, toolSearch?: ToolSearchTarget): ModelResponse {
  const responseId = result.response?.id;
  const requestId = requestIdOf(result.response?.headers);
  const finish: FinishInfo = finishOf(result.finishReason);
  const { output, sources } = outputItems(blocksOfContent(result.content ?? []), finish, { model, responseId, requestId, responseMetadata: result.providerMetadata, toolSearch });
  const response: ModelResponse = {
    usage: new Usage(usageOf(result.usage)),
    output,
    providerData: responseProviderData(model, {
      finish,
      providerMetadata: result.providerMetadata,
      warnings: result.warnings,
      sources,
      modelId: result.response?.modelId,
      timestamp: result.response?.timestamp,
      structuredOutputText: 'structuredOutputText' in result ? result.structuredOutputText : undefined,
    }),
  };
  if (responseId !== undefined) response.responseId = responseId;
  if (requestId !== undefined) response.requestId = requestId;
  return response;
}

/** The spec's finish reason (an object since v3; a bare string from older wrappers is read too). */
export function finishOf(reason: unknown): FinishInfo {
  if (typeof reason === 'string') return { unified: reason, raw: reason };
  if (typeof reason === 'object' && reason !== null) {
    const { unified, raw } = reason as { unified?: unknown; raw?: unknown };
    return { unified: typeof unified === 'string' ? unified : 'other', raw: typeof raw === 'string' ? raw : undefined };
  }
  return { unified: 'other', raw: undefined };
}

export interface ResponseFacts {
  readonly finish: FinishInfo;
  readonly providerMetadata?: SharedV4ProviderMetadata | undefined;
  readonly warnings?: readonly unknown[] | undefined;
  readonly sources?: readonly unknown[] | undefined;
  readonly modelId?: string | undefined;
  readonly timestamp?: Date | undefined;
  readonly structuredOutputText?: string | undefined;
}

/**
 * A response's `providerData`: the model, the finish reason (unified and raw), the response's
 * provider metadata, and, when present, warnings, sources, the served model id, the timestamp and
 * v4's `structuredOutputText`. JSON-safe, so it survives a serialized run state.
 */
export function responseProviderData(model: ModelIdentity, facts: ResponseFacts): ProviderData {
  const data: ProviderData = { model: modelIdentifier(model), finishReason: facts.finish.unified };
  if (facts.finish.raw !== undefined) data.rawFinishReason = facts.finish.raw;
  if (facts.providerMetadata !== undefined) data.providerMetadata = facts.providerMetadata;
  if (facts.warnings !== undefined && facts.warnings.length > 0) data.warnings = facts.warnings;
  if (facts.sources !== undefined && facts.sources.length > 0) data.sources = facts.sources;
  if (facts.modelId !== undefined) data.modelId = facts.modelId;
  if (facts.timestamp instanceof Date && !Number.isNaN(facts.timestamp.getTime())) data.timestamp = facts.timestamp.toISOString();
  if (facts.structuredOutputText !== undefined) data.structuredOutputText = facts.structuredOutputText;
  return data;
}
