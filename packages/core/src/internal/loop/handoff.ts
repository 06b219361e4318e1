import { Effect } from 'effect';
import {
  RunAgentUpdatedStreamEvent,
  RunHandoffOutputItem,
  UserError,
  getTransferMessage,
  type HandoffInputData,
} from '@baton/types';
import type { Agent } from '../../agent.js';
import type { RunFailure } from '../failures.js';
import { functionCallResult, itemEvent } from '../items.js';
import type { RunRecord } from '../runRecord.js';
import { fromUserCode } from '../userCode.js';
import type { HandoffRun } from './classifyResponse.js';
import type { LoopEnv } from './loopEnv.js';

/**
 * Switches the run to the handoff's agent: records the transfer, applies the input filter (the
 * handoff's own, else the runner's) to what the next agent sees, and announces the new agent.
 */
export function executeHandoff(run: HandoffRun, turnStart: number, record: RunRecord, env: LoopEnv): Effect.Effect<void, RunFailure> {
  return Effect.gen(function* () {
    const source = record.currentAgent;
    const target = (yield* fromUserCode(() => run.handoff.onInvokeHandoff(record.context, run.call.arguments))) as Agent<any, any>;
    if (typeof target !== 'object' || target === null || typeof target.name !== 'string') {
      return yield* Effect.fail(new UserError(`Handoff "${run.handoff.toolName}" did not produce an agent.`));
    }
    const output = new RunHandoffOutputItem(
      functionCallResult(run.call.callId, run.call.name, getTransferMessage(target)),
      source as never,
      target as never,
    );
    record.generatedItems.push(output);
    yield* env.emit(itemEvent(output));

    const filter = run.handoff.inputFilter ?? env.handoffInputFilter;
    if (filter) {
      if (typeof filter !== 'function') return yield* Effect.fail(new UserError('Invalid handoff input filter: not callable'));
      const data: HandoffInputData = {
        inputHistory: record.originalInput,
        preHandoffItems: record.generatedItems.slice(0, turnStart),
        newItems: record.generatedItems.slice(turnStart),
        runContext: record.context,
      };
      const filtered = yield* fromUserCode(() => filter(data));
      if (!isHandoffInputData(filtered)) {
        return yield* Effect.fail(
          new UserError(`Handoff input filter for "${run.handoff.toolName}" must return HandoffInputData ({ inputHistory, preHandoffItems, newItems }).`),
        );
      }
      record.originalInput = filtered.inputHistory;
      record.generatedItems = [...filtered.preHandoffItems, ...filtered.newItems];
    }
    record.currentAgent = target;
    yield* env.emit(new RunAgentUpdatedStreamEvent(target as never));
  }).pipe(
    Effect.withSpan('baton.handoff', {
      attributes: { 'baton.handoff.from': record.currentAgent.name, 'baton.handoff.to': run.handoff.agentName, 'baton.handoff.tool': run.handoff.toolName },
    }),
  );
}

function isHandoffInputData(value: unknown): value is HandoffInputData {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as HandoffInputData;
  return (
    (typeof data.inputHistory === 'string' || Array.isArray(data.inputHistory)) &&
    Array.isArray(data.preHandoffItems) &&
    Array.isArray(data.newItems)
  );
}
