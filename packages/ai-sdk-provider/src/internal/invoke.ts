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
 * this model's spec version (see promptTypes.ts), so they are handed over as they are.
 */

export async function generate(model: AiSdkLanguageModel, options: CallOptions): Promise<GenerateResult> {
  if (typeof model.doGenerate !== 'function') throw invalid(model, 'has no doGenerate() function.');
  const result: unknown = await (model as { doGenerate(options: unknown): unknown }).doGenerate(options);
  if (!isRecord(result) || !Array.isArray(result.content)) throw invalid(model, `doGenerate() returned no content array: ${preview(result)}`);
  return result as unknown as GenerateResult;
}

export async function openStream(model: AiSdkLanguageModel, options: CallOptions): Promise<OpenedStream> {
  if (typeof model.doStream !== 'function') throw invalid(model, 'has no doStream() function.');
  const result: unknown = await (model as { doStream(options: unknown): unknown }).doStream(options);
  const stream = isRecord(result) ? result.stream : undefined;
  const readable = isRecord(stream) && typeof stream.getReader === 'function' ? (stream as unknown as ReadableStream<StreamPart>) : asReadable(stream);
  if (readable === undefined) throw invalid(model, `doStream() returned no ReadableStream: ${preview(result)}`);
  const response = isRecord(result) && isRecord(result.response) ? result.response : undefined;
  return { stream: readable, headers: isRecord(response?.headers) ? (response.headers as HeaderRecord) : undefined };
}

function invalid(model: AiSdkLanguageModel, message: string): AiSdkProviderError {
  return new AiSdkProviderError({ reason: 'invalid_response', message: `AI SDK model ${label({ model })} ${message}`, provider: model.provider, modelId: model.modelId });
}

/** A stream handed over as a plain async iterable (the reference's adapter accepts one) as a ReadableStream. */
function asReadable(stream: unknown): ReadableStream<StreamPart> | undefined {
  if (!isRecord(stream) || typeof (stream as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function') return undefined;
  const iterator = (stream as unknown as AsyncIterable<StreamPart>)[Symbol.asyncIterator]();
  return new ReadableStream<StreamPart>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}
