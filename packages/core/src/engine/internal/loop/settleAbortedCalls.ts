import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import { ModelTimeoutError, Usage, type Model, type ModelRequest, type ModelResponse } from '@baton/types';
import { getLogger } from '../../../definitions/logger.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { ExternalFailure, type RunFailure } from '../failures.js';
import { NO_STREAM_PROGRESS, withModelRetries } from './modelRetry.js';
import type { StreamAbortLedger } from './streamAbortLedger.js';
import { isAbortError } from '../abortError.js';

const logger = getLogger('openai-agents:core');

/**
 * When a streamed model call on a server-managed conversation ends by an abort (the run's
 * cancellation, the provider's abort error, or a model timeout), the server keeps the calls the
 * response had made: before the call's end is reported, one more request answers each owed call as
 * aborted, so the conversation can go on. That request runs as part of the call's finalization
 * (cancellation waits for it), is not cancelled by the run's signal, counts its usage, and moves the
 * conversation's chain to its response. If it fails, the failure is logged (redacted when model or
 * tool data must not be logged) and the abort is reported as it was.
 */
export function settleAbortedCalls(ledger: StreamAbortLedger | undefined, model: Model, request: ModelRequest, record: RunRecord) {
  return <A, R>(self: Effect.Effect<A, RunFailure, R>): Effect.Effect<A, RunFailure, R> => {
    if (ledger === undefined) return self;
    return Effect.onExit(self, (exit) => {
      if (Exit.isSuccess(exit) || !ledger.owes || !endedByAbort(exit.cause)) return Effect.void;
      return settle(ledger, model, request, record);
    });
  };
}

function settle(ledger: StreamAbortLedger, model: Model, request: ModelRequest, record: RunRecord): Effect.Effect<void> {
  const { signal: _signal, previousResponseId: _previous, ...rest } = request;
  const settling: ModelRequest = { ...rest, input: ledger.settlingInput() };
  const previousResponseId = ledger.previousResponseId(request);
  if (previousResponseId !== undefined) settling.previousResponseId = previousResponseId;
  const attempt = Effect.tryPromise({ try: () => model.getResponse(settling), catch: (cause) => new ExternalFailure({ cause }) });
  return withModelRetries(attempt, { model, request: settling, stream: false, progress: NO_STREAM_PROGRESS }).pipe(
    Effect.tap((response: ModelResponse) =>
      Effect.sync(() => {
        ledger.settled(response.responseId);
        record.context.usage.add(new Usage(response.usage));
        const conversation = record.serverConversation;
        if (conversation && response.responseId) conversation.previousResponseId = response.responseId;
      }),
    ),
    Effect.catch((failure: ExternalFailure) =>
      Effect.sync(() => {
        const redact = logger.dontLogModelData || logger.dontLogToolData;
        logger.debug('Failed to reconcile streamed tool calls after abort.', redact ? typeof failure.cause : failure.cause);
      }),
    ),
    Effect.asVoid,
  );
}

/** Whether the call ended by an abort rather than by an error of its own. */
function endedByAbort(cause: Cause.Cause<RunFailure>): boolean {
  if (Cause.hasInterrupts(cause)) return true;
  const failure = Cause.findErrorOption(cause);
  if (failure._tag !== 'Some') return false;
  const error = failure.value instanceof ExternalFailure ? failure.value.cause : failure.value;
  return error instanceof ModelTimeoutError || isAbortError(error);
}

/** A model call that failed with the provider's abort error (its stream or fetch was aborted), not because its timeout passed. */
export function isStreamAbort(failure: RunFailure): boolean {
  return failure instanceof ExternalFailure && !(failure.cause instanceof ModelTimeoutError) && isAbortError(failure.cause);
}
