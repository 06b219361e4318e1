import * as Effect from 'effect/Effect';
import { RunMessageOutputItem, UserError, type AgentsError } from '@baton/types';
import type { RunErrorHandler, RunErrorKind } from '../../../definitions/runErrorHandlers.js';
import type { RunFailure } from '../failures.js';
import { inputToItems, itemEvent, runItemsToInputItems } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { fromUserCode } from '../userCode.js';
import type { LoopEnv } from './loopEnv.js';
import { checkFinalOutput } from './checkFinalOutput.js';
import { isRedactedFinalOutputError, modelDataRedacted, parseWithAgent, redactedDetailsError } from './finalOutputRedaction.js';

/**
 * Gives the run's error handler (for this kind, else `default`) the chance to answer a max-turns,
 * refusal or invalid-output failure with a final output. Without a handler, or when it returns
 * nothing, the error fails the run as before.
 */
export function recoverRunError(kind: RunErrorKind, error: AgentsError, record: RunRecord, env: LoopEnv): Effect.Effect<'done', RunFailure> {
  return handledRunError(kind, error, record, env).pipe(Effect.flatMap((outcome) => (outcome === 'done' ? Effect.succeed(outcome) : Effect.fail(error))));
}

/**
 * As `recoverRunError`, for a failure the loop can live with: without a handler, or when it
 * returns nothing, the answer is `'unhandled'` instead of the error (the caller decides).
 * Recovering from invalid output handles model data: when it was redacted (or becomes so while the
 * handler runs), a handler that throws or answers an invalid output fails the run with a redacted
 * error, without its cause.
 */
export function handledRunError(kind: RunErrorKind, error: AgentsError, record: RunRecord, env: LoopEnv): Effect.Effect<'done' | 'unhandled', RunFailure> {
  const handler = env.errorHandlers?.[kind] ?? env.errorHandlers?.default;
  if (!handler) return Effect.succeed('unhandled' as const);
  const redacting = kind === 'invalidFinalOutput';
  return Effect.suspend(() => {
    const redactFromStart = redacting && (isRedactedFinalOutputError(error) || modelDataRedacted());
    const redactNow = () => redacting && (redactFromStart || modelDataRedacted());
    return askHandler(kind, handler, error, record, env, redactNow).pipe(
      Effect.mapError((failure) => (redactNow() ? redactedDetailsError() : failure)),
    );
  });
}

function askHandler(
  kind: RunErrorKind,
  handler: RunErrorHandler<any, any>,
  error: AgentsError,
  record: RunRecord,
  env: LoopEnv,
  redactNow: () => boolean,
): Effect.Effect<'done' | 'unhandled', RunFailure> {
  return Effect.gen(function* () {
    const history = [...inputToItems(record.originalInput), ...runItemsToInputItems(record.generatedItems, record.reasoningItemIdPolicy)];
    const decision = yield* fromUserCode(env, () =>
      handler({
        error: error as never,
        context: record.context,
        runData: {
          input: record.originalInput,
          newItems: [...record.generatedItems],
          history,
          output: runItemsToInputItems(record.generatedItems, record.reasoningItemIdPolicy) as never,
          rawResponses: [...record.modelResponses],
          lastAgent: record.currentAgent,
          state: env.publicState,
        },
      }),
    );
    if (decision === undefined || decision === null) return 'unhandled' as const;
    if (typeof decision !== 'object' || !('finalOutput' in decision)) {
      return yield* Effect.fail(new UserError(`The ${kind} error handler must return { finalOutput, includeInHistory? } or nothing.`));
    }
    // The handler's answer is the agent's final output: text for a text agent, else it must
    // match the output type (checked by the agent's parser as the model's answer would be).
    const agent = record.currentAgent;
    const text = agent.outputType === 'text' ? String(decision.finalOutput) : (JSON.stringify(decision.finalOutput) ?? 'undefined');
    const parsed = yield* parseWithAgent(agent, text);
    if (!parsed.ok) {
      return yield* Effect.fail(redactNow() ? redactedDetailsError() : new UserError(`Invalid run error handler finalOutput: ${parsed.describe()}`));
    }
    const output = parsed.value;
    const item =
      decision.includeInHistory === false
        ? undefined
        : new RunMessageOutputItem({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }, record.currentAgent);
    // The answer is checked by the output guardrails as a model's would be (with no model response
    // behind it). A max-turns answer joins the run's items only once they passed and the run is in
    // its session (the run loop publishes it then): nothing was said yet.
    const deferred = kind === 'maxTurns';
    if (item && !deferred) yield* publish(item, record, env);
    yield* checkFinalOutput(output, agent, undefined, record, env);
    if (item && deferred) record.heldFinalItem = item;
    record.finalOutputFromErrorHandler = true;
    return 'done' as const;
  });
}

export function publish(item: RunMessageOutputItem, record: RunRecord, env: LoopEnv): Effect.Effect<void> {
  record.generatedItems.push(item);
  return env.emit(itemEvent(item));
}
