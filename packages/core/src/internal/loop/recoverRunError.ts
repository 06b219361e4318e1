import * as Effect from 'effect/Effect';
import { RunMessageOutputItem, UserError, type AgentsError } from '@baton/types';
import type { RunErrorKind } from '../../runErrorHandlers.js';
import type { RunFailure } from '../failures.js';
import { itemEvent, runItemsToInputItems } from '../items.js';
import type { RunRecord } from '../runRecord.js';
import { fromUserCode } from '../userCode.js';
import type { LoopEnv } from './loopEnv.js';

/**
 * Gives the run's error handler (for this kind, else `default`) the chance to answer a max-turns,
 * refusal or invalid-output failure with a final output. Without a handler, or when it returns
 * nothing, the error fails the run as before.
 */
export function recoverRunError(kind: RunErrorKind, error: AgentsError, record: RunRecord, env: LoopEnv): Effect.Effect<'done', RunFailure> {
  const handler = env.errorHandlers?.[kind] ?? env.errorHandlers?.default;
  if (!handler) return Effect.fail(error);
  return Effect.gen(function* () {
    const history = [...(typeof record.originalInput === 'string' ? [] : record.originalInput), ...runItemsToInputItems(record.generatedItems, record.reasoningItemIdPolicy)];
    const decision = yield* fromUserCode(() =>
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
    if (decision === undefined || decision === null) return yield* Effect.fail(error);
    if (typeof decision !== 'object' || !('finalOutput' in decision)) {
      return yield* Effect.fail(new UserError(`The ${kind} error handler must return { finalOutput, includeInHistory? } or nothing.`));
    }
    const output = decision.finalOutput;
    if (decision.includeInHistory !== false) {
      const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? '');
      const item = new RunMessageOutputItem(
        { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] },
        record.currentAgent,
      );
      record.generatedItems.push(item);
      yield* env.emit(itemEvent(item));
    }
    record.currentStep = { type: 'next_step_final_output', output };
    record.finalOutputFromErrorHandler = true;
    return 'done' as const;
  });
}
