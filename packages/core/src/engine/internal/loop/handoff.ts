import * as Effect from 'effect/Effect';
import { span } from './span.js';
import {
  RunAgentUpdatedStreamEvent,
  RunHandoffOutputItem,
  UserError,
  getTransferMessage,
  type HandoffInputData,
} from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { RunFailure } from '../failures.js';
import { functionCallResult, itemEvent } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { fromUserCode } from '../userCode.js';
import type { HandoffRun } from './classifyResponse.js';
import type { LoopEnv } from './loopEnv.js';
import { agentHandedOff } from './lifecycleHooks.js';
import { step } from './steps.js';
import { walkAgentGraph } from '../../../state/internal/serialization/identity.js';
import type { StepCodec } from '../../../definitions/stepRunner.js';

/**
 * Switches the run to the handoff's agent: records the transfer, applies the input filter (the
 * handoff's own, else the runner's) to what the next agent sees, and announces the new agent.
 */
export function executeHandoff(run: HandoffRun, turnStart: number, record: RunRecord, env: LoopEnv): Effect.Effect<void, RunFailure> {
  return Effect.gen(function* () {
    const source = record.currentAgent;
    // The callback is the `handoff:{callId}` step; its result is recorded as the agent's name.
    const invoke = fromUserCode(env, () => run.handoff.onInvokeHandoff(record.context, run.call.arguments) as Agent<any, any> | Promise<Agent<any, any>>);
    const target = yield* step(env.stepRunner, 'handoff', () => `handoff:${run.call.callId}`, handoffTargetCodec(run.handoff.agent as Agent<any, any>, record), invoke);
    if (typeof target !== 'object' || target === null || typeof target.name !== 'string') {
      return yield* Effect.fail(new UserError(`Handoff "${run.handoff.toolName}" did not produce an agent.`));
    }
    yield* Effect.annotateCurrentSpan('baton.handoff.to', target.name);
    yield* agentHandedOff(source, target, record, env);
    const output = new RunHandoffOutputItem(
      functionCallResult(run.call.callId, run.call.name, getTransferMessage(target)),
      source,
      target,
    );
    record.generatedItems.push(output);
    yield* env.emit(itemEvent(output));

    const filter = run.handoff.inputFilter ?? env.handoffInputFilter;
    if (filter) {
      if (typeof filter !== 'function') return yield* Effect.fail(new UserError('Invalid handoff input filter: not callable'));
      if (record.serverConversation) {
        return yield* Effect.fail(
          new UserError('Handoff input filters cannot be used with previousResponseId or conversationId: the server keeps the full history.'),
        );
      }
      const data: HandoffInputData = {
        inputHistory: record.originalInput,
        preHandoffItems: record.generatedItems.slice(0, turnStart),
        newItems: record.generatedItems.slice(turnStart),
        runContext: record.context,
      };
      const filtered = yield* fromUserCode(env, () => filter(data));
      const problem = handoffInputDataProblem(filtered);
      if (problem) {
        return yield* Effect.fail(
          new UserError(`Handoff input filter for "${run.handoff.toolName}" must return HandoffInputData ({ inputHistory, preHandoffItems, newItems }): ${problem}.`),
        );
      }
      // The session records what happened, not what the next agent is shown.
      env.beforeHistoryRewrite(record.generatedItems);
      record.originalInput = filtered.inputHistory;
      record.generatedItems = [...filtered.preHandoffItems, ...filtered.newItems];
    }
    record.currentAgent = target;
    yield* env.emit(new RunAgentUpdatedStreamEvent(target));
  }).pipe(
    span(env, 'baton.handoff', () => ({
      'baton.handoff.from': record.currentAgent.name,
      'baton.handoff.tool': run.handoff.toolName,
      ...(run.ignoredCalls.length > 0 ? { 'baton.handoff.ignored': run.ignoredCalls.map((call) => call.name).join(',') } : {}),
    })),
  );
}

/** The agent a handoff switched to, recorded by name and found again in the run's agent graph. */
function handoffTargetCodec(declared: Agent<any, any>, record: RunRecord): StepCodec<Agent<any, any>> {
  return {
    encode: (agent) => (typeof agent === 'object' && agent !== null ? agent.name : null),
    decode: (name) => {
      if (declared?.name === name) return declared;
      const found = [record.currentAgent, ...walkAgentGraph(record.rootAgent)].find((agent) => agent.name === name);
      if (!found) throw new UserError(`A recorded handoff names agent "${String(name)}", which is not in the agent graph.`);
      return found;
    },
  };
}

const RUN_ITEM_TYPES = new Set(['message_output_item', 'tool_call_item', 'tool_call_output_item', 'reasoning_item', 'tool_search_call_item', 'tool_search_output_item', 'compaction_item', 'input_item', 'handoff_call_item', 'handoff_output_item', 'tool_approval_item']);

/** What is wrong with a filter's return value, or undefined when it is valid HandoffInputData. */
function handoffInputDataProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `got ${value === null ? 'null' : typeof value}`;
  const data = value as HandoffInputData;
  if (typeof data.inputHistory !== 'string') {
    if (!Array.isArray(data.inputHistory)) return '`inputHistory` must be a string or an array of protocol items';
    const bad = data.inputHistory.findIndex((item) => typeof item !== 'object' || item === null || (typeof item.type !== 'string' && typeof (item as { role?: unknown }).role !== 'string'));
    if (bad >= 0) return `\`inputHistory[${bad}]\` is not a protocol item`;
  }
  for (const field of ['preHandoffItems', 'newItems'] as const) {
    const list = data[field];
    if (!Array.isArray(list)) return `\`${field}\` must be an array of run items`;
    const bad = list.findIndex(
      (item) => typeof item !== 'object' || item === null || !RUN_ITEM_TYPES.has((item as { type?: string }).type ?? '') || typeof item.rawItem !== 'object',
    );
    if (bad >= 0) return `\`${field}[${bad}]\` is not a run item`;
  }
  return undefined;
}
