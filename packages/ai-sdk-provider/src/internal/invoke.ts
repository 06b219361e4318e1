import type { LanguageModelV3CallOptions, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { AiSdkProviderError } from '../aiSdkProviderError.js';
import type { AiSdkLanguageModel } from '../languageModel.js';
import type { HeaderRecord } from './headers.js';
import { isRecord, preview } from './json.js';
import type { CallOptions } from './promptTypes.js';
import type { GenerateResult } from './response.js';
import type { StreamPart } from './streamAssembler.js';
import { label } from './toProviderError.js';

export interface OpenedStream {
  readonly stream: ReadableStream<StreamPart>;
  readonly headers: HeaderRecord;
}

/*
 * The one place the version-neutral call options meet a typed model: the options were built for
 * this model's spec version (see promptTypes.ts), so each branch hands them over as that version's.
 */

export async function generate(model: AiSdkLanguageModel, options: CallOptions): Promise<GenerateResult> {
  const result: unknown =
    model.specificationVersion === 'v4'
      ? await model.doGenerate(options as unknown as LanguageModelV4CallOptions)
      : await model.doGenerate(options as unknown as LanguageModelV3CallOptions);
  if (!isRecord(result) || !Array.isArray(result.content)) throw invalid(model, `doGenerate() returned no content array: ${preview(result)}`);
  return result as unknown as GenerateResult;
}

export async function openStream(model: AiSdkLanguageModel, options: CallOptions): Promise<OpenedStream> {
  const result: unknown =
    model.specificationVersion === 'v4'
      ? await model.doStream(options as unknown as LanguageModelV4CallOptions)
      : await model.doStream(options as unknown as LanguageModelV3CallOptions);
  const stream = isRecord(result) ? result.stream : undefined;
  if (!isRecord(stream) || typeof stream.getReader !== 'function') throw invalid(model, `doStream() returned no ReadableStream: ${preview(result)}`);
  const response = isRecord(result) && isRecord(result.response) ? result.response : undefined;
  return { stream: stream as unknown as ReadableStream<StreamPart>, headers: isRecord(response?.headers) ? (response.headers as HeaderRecord) : undefined };
}

function invalid(model: AiSdkLanguageModel, message: string): AiSdkProviderError {
  return new AiSdkProviderError({ reason: 'invalid_response', message: `AI SDK model ${label({ model })} ${message}`, provider: model.provider, modelId: model.modelId });
}
