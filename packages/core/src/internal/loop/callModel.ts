import { Effect } from 'effect';
import {
  ModelBehaviorError,
  RunRawModelStreamEvent,
  Usage,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '@baton/types';
import { ExternalFailure, type RunFailure } from '../failures.js';
import type { LoopEnv } from './loopEnv.js';

/**
 * One model call. Streamed runs forward every model event as it arrives (through the bounded
 * event buffer, so a slow consumer slows the model read) and keep the `response_done` response.
 * Interruption aborts the request through `request.signal`.
 */
export function callModel(model: Model, request: ModelRequest, env: LoopEnv): Effect.Effect<ModelResponse, RunFailure> {
  if (!env.streamed) {
    return Effect.tryPromise({
      try: (signal) => model.getResponse({ ...request, signal }),
      catch: (cause) => new ExternalFailure({ cause }),
    }).pipe(Effect.flatMap(checkResponse));
  }
  // One promise loop over the provider's stream: each delta is forwarded synchronously while the
  // buffer has room (measured: a fiber hop per delta tripled delivery cost), and waits when full.
  return Effect.tryPromise({
    try: (signal) => forwardStream(model, { ...request, signal }, env),
    catch: (cause) => new ExternalFailure({ cause }),
  }).pipe(
    Effect.flatMap((done) =>
      done ? checkResponse(done) : Effect.fail(new ModelBehaviorError('The model stream ended without a response_done event.')),
    ),
  );
}

async function forwardStream(model: Model, request: ModelRequest & { signal: AbortSignal }, env: LoopEnv): Promise<ModelResponse | undefined> {
  let done: ModelResponse | undefined;
  for await (const event of model.getStreamedResponse(request)) {
    if (event.type === 'response_done') done = fromDoneEvent(event.response);
    if (env.observed) {
      const wrapped = new RunRawModelStreamEvent(event, sourceOf(event));
      while (!env.sink.tryOffer(wrapped)) await env.sink.whenWritable();
    }
    if (request.signal.aborted) break; // the run was interrupted: stop reading (return() closes the stream)
  }
  return done;
}

function sourceOf(event: ModelStreamEvent): string | undefined {
  const source = event.providerData?.rawModelEventSource;
  return typeof source === 'string' ? source : undefined;
}

function fromDoneEvent(response: Extract<ModelStreamEvent, { type: 'response_done' }>['response']): ModelResponse {
  const out: ModelResponse = { usage: new Usage(response.usage), output: response.output, responseId: response.id };
  if (response.requestId !== undefined) out.requestId = response.requestId;
  if (response.providerData !== undefined) out.providerData = response.providerData;
  return out;
}

function checkResponse(response: ModelResponse): Effect.Effect<ModelResponse, RunFailure> {
  if (typeof response !== 'object' || response === null || !Array.isArray(response.output)) {
    return Effect.fail(new ModelBehaviorError('The model returned a response without an `output` array.'));
  }
  return Effect.succeed(response);
}
