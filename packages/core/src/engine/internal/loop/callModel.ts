import * as Effect from 'effect/Effect';
import {
  ModelBehaviorError,
  ModelStreamIdleTimeoutError,
  Usage,
  type UserError,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '@baton/types';
import { ExternalFailure, type RunFailure } from '../failures.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { settledPromise } from '../settledPromise.js';
import type { LoopEnv } from './loopEnv.js';
import { modelTimeoutMs, timedAttempt, type AttemptTimeout } from './modelTimeout.js';
import { NO_STREAM_PROGRESS, withModelRetries } from './modelRetry.js';
import { IdleWatchdog } from './idleWatchdog.js';
import { annotate, annotateWith, span } from './span.js';
import { flatMapNow } from '../flatMapNow.js';
import { step } from './steps.js';
import { modelResponseCodec, streamedModelCallCodec, type StreamedModelCall } from './stepCodecs.js';
import { LazyAbort, withLazySignal } from '../lazyAbort.js';
import { FailedAttempts } from './failedAttempts.js';
import { StreamAbortLedger } from './streamAbortLedger.js';
import { forwardStream, NO_EVENTS } from './modelStreamForwarding.js';
import { isStreamAbort, settleAbortedCalls } from './settleAbortedCalls.js';

/**
 * One model call, which is what counts a turn: the turn starts when the request is sent, so a
 * guardrail that stops the run before that leaves the count where it was; a turn cancelled during
 * its model call and then resumed is not counted twice. Streamed runs forward
 * every model event as it arrives (through the bounded event buffer, so a slow consumer slows the
 * model read) and keep the `response_done` response. The response's usage is added to the run's
 * before its `response_done` event reaches the caller. Interruption aborts the request through
 * `request.signal` and waits until the call has really ended. A failed call is retried as
 * `modelSettings.retry.policy` decides (the turn is counted once).
 */
export function callModel(model: Model, request: ModelRequest, record: RunRecord, env: LoopEnv): Effect.Effect<ModelResponse, RunFailure> {
  return callModelOnce(model, request, record, env).pipe(
    annotateWith(env, (response) => ({ 'baton.model.response': response })),
    span(env, 'baton.model', () => ({
      'baton.model.span_type': model.traceSpanType,
      'baton.model.name': model.modelName,
      'baton.model.request': request,
      'baton.streamed': env.streamed,
    })),
  );
}

/**
 * The model call is the turn's `t{turn}:model` step (its retries inside it). A streamed call's
 * result is the list of model events it produced: a replayed call sends the caller those events
 * again, as a live one does while it reads them.
 */
function callModelOnce(model: Model, request: ModelRequest, record: RunRecord, env: LoopEnv): Effect.Effect<ModelResponse, RunFailure> {
  let timeoutMs: number | undefined;
  try {
    timeoutMs = modelTimeoutMs(request.modelSettings);
  } catch (error) {
    return Effect.fail(error as UserError);
  }
  const failures = new FailedAttempts();
  if (!env.streamed) {
    const attempt = settledPromise(
      (abort) => timedAttempt(timeoutMs, abort, () => model.getResponse(withLazySignal(request, abort)).catch(failures.record)),
      (cause) => new ExternalFailure({ cause }),
      (cause) => void (record.abortedWith = abortOutcome(cause, request, env)),
      () => callerReason(env),
    );
    const call = withModelRetries(attempt, { model, request, stream: false, progress: NO_STREAM_PROGRESS }).pipe(
      Effect.flatMap((response) => flatMapNow(checkResponse(response), (checked) => Effect.succeed<ModelResponse>(Object.assign({}, checked, { usage: failures.foldInto(checked.usage) })))),
      countFailedUsage(failures, record, env),
    );
    return Effect.suspend(() => {
      startTurn(record, env);
      return step(env.stepRunner, 'model', () => `t${record.currentTurn}:model`, modelResponseCodec, call);
    }).pipe(Effect.map((response) => counted(response, record)));
  }
  // The provider's stream is read in promises, not fibers (measured: a fiber hop per delta tripled
  // delivery cost): see `forwardStream`.
  const progress = { producedEvents: false };
  const preserveRawUsage = request.modelSettings.preserveRawUsage === true;
  // The calls the stream made that an abort would leave unanswered on a server-managed conversation.
  const ledger = record.serverConversation ? new StreamAbortLedger() : undefined;
  // Only a recorded call keeps its events (the default runner records nothing).
  let events: ModelStreamEvent[] = NO_EVENTS;
  // One attempt: the provider's stream read to its end.
  const streamAttempt = (abort: LazyAbort, timeout: AttemptTimeout | undefined): Promise<ModelResponse | undefined> => {
    if (env.stepRunner !== undefined) events = [];
    const idleMs = env.limits.modelStreamIdleTimeoutMs;
    if (!(idleMs > 0 && Number.isFinite(idleMs))) {
      return forwardStream(model.getStreamedResponse(withLazySignal(request, abort)), { abort, record, env, progress, events, failures, ledger, preserveRawUsage, timeout }).catch(failures.record);
    }
    // An untrusted server may send one event and stall: past the idle limit the request is
    // aborted. The request's signal fires on either cause; it is made only if the model reads it.
    const requestAbort = new LazyAbort();
    abort.follow(requestAbort);
    let stalled: { reason: ModelStreamIdleTimeoutError } | undefined;
    const watchdog = new IdleWatchdog(idleMs, () => {
      stalled = { reason: new ModelStreamIdleTimeoutError(`The model stream sent no event for ${idleMs} ms (limits.modelStreamIdleTimeoutMs); the request was aborted.`, idleMs) };
      requestAbort.abort(stalled.reason);
    });
    // One `then` for the outcome, the stall and the watchdog's end (a chain of three cost a promise and a closure each, per model call).
    return forwardStream(model.getStreamedResponse(withLazySignal(request, requestAbort)), { abort, record, env, progress, events, watchdog, failures, ledger, preserveRawUsage, timeout }).then(
      (done) => {
        watchdog.stop();
        return stalled !== undefined ? failures.record(stalled.reason) : done;
      },
      (cause: unknown) => {
        watchdog.stop();
        return failures.record(stalled !== undefined ? stalled.reason : cause);
      },
    );
  };
  const attempt = settledPromise(
    (abort) => timedAttempt(timeoutMs, abort, (timeout) => streamAttempt(abort, timeout)),
    (cause) => new ExternalFailure({ cause }),
    (cause) => void (record.abortedWith = abortOutcome(cause, request, env)),
    () => callerReason(env),
  );
  const settled = withModelRetries(attempt, { model, request, stream: true, progress }).pipe(
    Effect.flatMap((done) =>
      done
        ? flatMapNow(checkResponse(done), (): Effect.Effect<StreamedModelCall> => Effect.succeed({ events, done, live: true }))
        : Effect.fail(new ModelBehaviorError('The model stream ended without a response_done event.')),
    ),
    countFailedUsage(failures, record, env),
    settleAbortedCalls(ledger, model, request, record),
  );
  // A stream the provider ends with an abort error is a cancelled call (as the reference treats
  // it): the run ends as a cancelled one, quietly, not with a failure. (Data-first: `catchIf` in a
  // pipe tells its forms apart by inspecting its arguments, a few times the cost of the catch.)
  const live = Effect.catchIf(settled, isStreamAbort, () => Effect.interrupt);
  return Effect.suspend(() => {
    startTurn(record, env);
    return step(env.stepRunner, 'model', () => `t${record.currentTurn}:model`, streamedModelCallCodec, live);
  }).pipe(Effect.flatMap((call) => (call.live ? checkResponse(call.done!) : replayStream(call.events, record, env, preserveRawUsage))));
}

/**
 * The model call starts its turn: a turn whose call was cancelled (a resumed state, `turnInProgress`)
 * is the same turn again. From here the run's input has been sent to the model (a streamed run that
 * fails keeps it in its session).
 */
function startTurn(record: RunRecord, env: LoopEnv): void {
  if (record.turnInProgress !== true) record.currentTurn += 1;
  record.turnInProgress = true;
  if (record.session !== undefined) record.session.inputSentToModel = true;
  env.onTurnStart?.(record.currentTurn);
}

/** The response's usage counts in the run's, a recorded call's too (a step runner replays it without running the call). */
function counted(response: ModelResponse, record: RunRecord): ModelResponse {
  record.context.usage.add(new Usage(response.usage));
  return response;
}

/**
 * A model call that failed for good: what its attempts were billed (a failed, incomplete or
 * truncated response's usage, as the provider reports it on the error) counts in the run's usage
 * and in the model span (so the turn and task spans count it), cancelled calls included.
 */
function countFailedUsage(failures: FailedAttempts, record: RunRecord, env: LoopEnv) {
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.onError(self, () => {
      const usage = failures.known();
      if (usage === undefined) return Effect.void;
      return Effect.sync(() => record.context.usage.add(usage)).pipe(Effect.andThen(annotate(env, () => ({ 'baton.model.failed_usage': usage }))));
    });
}

/** A recorded streamed call: its events go to the caller again, the usage counted as a live call counts it. */
function replayStream(events: readonly ModelStreamEvent[], record: RunRecord, env: LoopEnv, preserveRawUsage: boolean): Effect.Effect<ModelResponse, RunFailure> {
  const progress = { producedEvents: false };
  return settledPromise((abort) => forwardStream(events, { abort, record, env, progress, events: NO_EVENTS, preserveRawUsage }), (cause) => new ExternalFailure({ cause })).pipe(
    Effect.flatMap((done) => (done ? checkResponse(done) : Effect.fail(new ModelBehaviorError('The recorded model stream has no response_done event.')))),
  );
}

function checkResponse(response: ModelResponse): Effect.Effect<ModelResponse, RunFailure> {
  if (typeof response !== 'object' || response === null || !Array.isArray(response.output)) {
    return Effect.fail(new ModelBehaviorError('The model returned a response without an `output` array.'));
  }
  return Effect.succeed(response);
}

/** A call the caller's signal stopped is aborted with the caller's reason, as tools are (and as the reference's requests see it). */
function callerReason(env: LoopEnv): unknown {
  return env.signal?.aborted === true ? env.signal.reason : undefined;
}

/**
 * What a call the caller's signal stopped ended with: what the call itself rejected with (undefined
 * when it answered all the same); but a call the reference times (\`modelSettings.timeoutMs\`) ends
 * with the caller's abort, as the reference's timed calls do (its reason when an Error, else an
 * \`AbortError\`), however the provider then ended it. (The run still waits for the call to end.)
 */
function abortOutcome(cause: unknown, request: ModelRequest, env: LoopEnv): unknown {
  if (request.modelSettings.timeoutMs === undefined || env.signal?.aborted !== true) return cause;
  const reason: unknown = env.signal.reason;
  if (reason instanceof Error) return reason;
  return Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
}
