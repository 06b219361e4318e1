import type { ModelStreamEvent, ProviderData } from '@baton/types';
import { AiSdkProviderError } from '../aiSdkProviderError.js';
import { AISDK_RAW_MODEL_EVENT_SOURCE } from '../rawModelEvents.js';
import type { CallScope } from './callScope.js';
import { outputItems } from './content.js';
import { modelIdentifier, type ModelIdentity } from './providerData.js';
import { finishOf, responseProviderData } from './response.js';
import { StreamAssembler, type StreamPart } from './streamAssembler.js';
import { abortedError, label, streamErrorPart, toProviderError } from './toProviderError.js';
import type { ToolSearchTarget } from './toolSearchOutput.js';
import { snapshotUsage, usageOf } from './usage.js';

export interface StreamContext {
  readonly model: ModelIdentity;
  readonly scope: CallScope;
  /** The model request's signal. */
  readonly signal: AbortSignal | undefined;
  readonly requestId: string | undefined;
  /** `modelSettings.preserveRawUsage`: the finish part's usage object goes on the response as `rawUsage`. */
  readonly preserveRawUsage?: boolean | undefined;
  /** The request's hosted tool search, if it offers one (see `toolSearchOutput.ts`). */
  readonly toolSearch?: ToolSearchTarget | undefined;
}

const RAW: ProviderData = { rawModelEventSource: AISDK_RAW_MODEL_EVENT_SOURCE };

/**
 * A language model's stream parts (v3 or v4) as Baton model stream events: `response_started` with
 * the first part, then every part passed through as a `model` event (followed by an
 * `output_text_delta` for each text delta), and finally one `response_done` with the assembled
 * output, usage and response id. An `error` part, a broken stream, or a provider's stream (opened
 * with `stream-start`) that ends without its `finish` part throws an `AiSdkProviderError`; a
 * hand-written stream without `stream-start` and `finish` returns what it sent (the reference's behaviour). A consumer that stops reading, an abort or any
 * failure cancels the stream and aborts the language model's HTTP request.
 */
export async function* streamEvents(stream: ReadableStream<StreamPart>, context: StreamContext): AsyncGenerator<ModelStreamEvent> {
  const reader = stream.getReader();
  const assembler = new StreamAssembler();
  const failure = { model: context.model, phase: 'stream' as const, signal: context.signal, requestId: context.requestId };
  let started = false;
  let drained = false;
  let finishUsage: unknown;
  let rawUsage: Record<string, unknown> | undefined;
  try {
    while (true) {
      let next: ReadableStreamReadResult<StreamPart>;
      try {
        next = await context.scope.wait(reader.read());
      } catch (error) {
        throw toProviderError(error, { ...failure, timedOutAfterMs: context.scope.timedOutAfterMs });
      }
      if (next.done) break;
      const part = next.value;
      // With preserveRawUsage, the usage is copied before the part is handed to the consumer (who may change it).
      if (part.type === 'finish') {
        rawUsage = context.preserveRawUsage === true ? snapshotUsage(part.usage) : undefined;
        finishUsage = part.usage;
      }
      if (!started) {
        started = true;
        yield { type: 'response_started', providerData: { model: modelIdentifier(context.model) } };
      }
      yield { type: 'model', event: part, providerData: RAW };
      if (part.type === 'error') throw streamErrorPart(part.error, failure);
      const delta = assembler.add(part);
      if (delta !== undefined) yield { type: 'output_text_delta', delta, ...(assembler.textItemId === undefined ? {} : { itemId: assembler.textItemId }) };
    }
    drained = true;
  } finally {
    if (!drained) {
      context.scope.abort();
      // Cancelling only releases the connection; how it went does not change the outcome being reported.
      reader.cancel().catch(() => undefined);
    } else {
      reader.releaseLock();
    }
  }
  // Some language models end their stream quietly when aborted: report the abort, not a short answer.
  if (context.signal?.aborted) throw abortedError(failure, context.signal.reason);
  // A stream that ends without its `finish` part: when it opened with the spec's `stream-start` (as
  // every AI SDK provider package does, and then always finishes), the vendor's stream was cut
  // short, which is an error. A stream without either (a hand-written model, a minimal wrapper)
  // answered with what it sent: that is the response, with no usage, as in the reference.
  const finishPart = assembler.finish;
  if (finishPart === undefined && assembler.announced) {
    throw new AiSdkProviderError({
      reason: 'stream_interrupted',
      message: `AI SDK model ${label(failure)} stream ended without its finish part (it was cut short).`,
      provider: context.model.provider,
      modelId: context.model.modelId,
      requestId: context.requestId,
    });
  }
  const finish = finishOf(finishPart?.finishReason);
  const responseId = assembler.responseId;
  const { output, sources } = outputItems(assembler.blocks(), finish, { model: context.model, responseId, requestId: context.requestId, toolSearch: context.toolSearch });
  const done: ModelStreamEvent = {
    type: 'response_done',
    response: {
      id: responseId ?? `aisdk_${globalThis.crypto.randomUUID().replace(/-/g, '')}`,
      // Plain usage numbers (the run counts the request), as the reference's stream reports them.
      usage: withoutRequests(usageOf(rawUsage ?? finishUsage)),
      output,
      providerData: responseProviderData(context.model, {
        finish,
        providerMetadata: finishPart?.providerMetadata,
        warnings: assembler.warnings,
        sources,
        modelId: assembler.modelId,
        timestamp: assembler.timestamp,
      }),
    },
  };
  if (context.requestId !== undefined) done.response.requestId = context.requestId;
  if (rawUsage !== undefined) done.response.rawUsage = rawUsage;
  yield done;
}

function withoutRequests(usage: ReturnType<typeof usageOf>): ReturnType<typeof usageOf> {
  const { requests: _requests, ...rest } = usage;
  return rest;
}
