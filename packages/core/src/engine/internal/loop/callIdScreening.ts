import * as Effect from 'effect/Effect';
import { ModelBehaviorError, type FunctionCallItem, type RunItem } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { invocationFingerprint } from '../../../definitions/internal/invocationFingerprint.js';
import type { ToolRun } from './classifyResponse.js';

/**
 * A call id names one tool invocation for the whole run. Before any tool of a response runs, its
 * calls are screened against what the run already holds for their ids:
 *
 * - an empty id, or one id for two different invocations (in this response, or beside an output
 *   already committed for the id, or beside the invocation an approval decision was made on) fails
 *   the run with `ModelBehaviorError`, so nothing runs on a decision or a result meant for another call;
 * - the exact invocation again (same tool, caller and arguments as JSON values) is not run again:
 *   its output is already in history, or an earlier call of the same response runs it.
 *
 * Returns the runs to execute and the calls left out (their call items stay out of history),
 * decided when called: the loop calls it as the turn runs, so a turn with nothing to screen costs no fiber step.
 */
export function screenCallIds(
  runs: readonly ToolRun[],
  agent: Agent<any, any>,
  record: RunRecord,
): Effect.Effect<{ runs: readonly ToolRun[]; skipped: ReadonlySet<FunctionCallItem> }, ModelBehaviorError> {
  if (runs.length === 0) return NOTHING_TO_SCREEN;
  const committed = committedCalls(record.generatedItems, agent);
  const inResponse = new Map<string, Invocation>();
  const kept: ToolRun[] = [];
  const skipped = new Set<FunctionCallItem>();
  for (const run of runs) {
    const { call } = run;
    const callId = call.callId;
    if (typeof callId !== 'string' || callId === '') {
      return Effect.fail(new ModelBehaviorError(`Tool call "${call.name}" has no call id; a call without one cannot be told apart from another, so it is not run.`));
    }
    const invocation = new Invocation(run.tool?.name ?? call.name, call);
    const decided = run.tool ? record.context._decidedInvocation({ toolName: invocation.toolName, callId }) : undefined;
    if (decided !== undefined && decided !== invocation.fingerprint) {
      return Effect.fail(new ModelBehaviorError(`Tool call ${callId} (${call.name}) differs from the invocation its approval decision was made on; the decision is not applied to another invocation.`));
    }
    const answered = committed.get(callId);
    const earlier = inResponse.get(callId) ?? (answered && new Invocation(answered.name, answered));
    if (earlier !== undefined && earlier.fingerprint !== invocation.fingerprint) {
      const where = inResponse.has(callId) ? 'another call in the same response' : 'a call whose output is already committed';
      return Effect.fail(new ModelBehaviorError(`Tool call id ${callId} was reused by ${where} for a different invocation (tool "${call.name}").`));
    }
    if (earlier !== undefined) {
      skipped.add(call);
      continue;
    }
    inResponse.set(callId, invocation);
    kept.push(run);
  }
  return Effect.succeed({ runs: kept, skipped });
}

/** A response without function calls: nothing to run, nothing left out. */
const NOTHING_TO_SCREEN = Effect.succeed({ runs: [] as readonly ToolRun[], skipped: new Set<FunctionCallItem>() as ReadonlySet<FunctionCallItem> });

/**
 * One invocation; its fingerprint (canonical JSON of the arguments) is worked out only when a call
 * id meets another invocation or a decision, so a turn of fresh call ids parses no arguments.
 */
class Invocation {
  #fingerprint: string | undefined;

  constructor(
    readonly toolName: string,
    readonly call: FunctionCallItem,
  ) {}

  get fingerprint(): string {
    return (this.#fingerprint ??= invocationFingerprint(this.toolName, this.call));
  }
}

/** Call id → call, for this agent's function calls that have an output in history. */
function committedCalls(items: readonly RunItem[], agent: Agent<any, any>): Map<string, FunctionCallItem> {
  const calls = new Map<string, FunctionCallItem>();
  const answered: string[] = [];
  for (const item of items) {
    if (item.agent !== agent) continue;
    if (item.type === 'tool_call_item' && item.rawItem.type === 'function_call') calls.set(item.rawItem.callId, item.rawItem);
    else if (item.type === 'tool_call_output_item' && item.rawItem.type === 'function_call_result') answered.push(item.rawItem.callId);
  }
  const committed = new Map<string, FunctionCallItem>();
  for (const callId of answered) {
    const call = calls.get(callId);
    if (call) committed.set(callId, call);
  }
  return committed;
}

/**
 * Handoff calls a response made beside the one the run takes are answered on a server-kept
 * conversation. One whose call id already names a committed call of another invocation fails the
 * run: the answer would be read as the output of that earlier call.
 */
export function screenIgnoredHandoffCalls(calls: readonly FunctionCallItem[], agent: Agent<any, any>, record: RunRecord): Effect.Effect<void, ModelBehaviorError> {
  if (calls.length === 0 || !record.serverConversation) return Effect.void;
  const committed = committedCalls(record.generatedItems, agent);
  for (const call of calls) {
    const answered = committed.get(call.callId);
    if (answered && new Invocation(answered.name, answered).fingerprint !== new Invocation(call.name, call).fingerprint) {
      return Effect.fail(new ModelBehaviorError(`Tool call ID ${call.callId} was reused for a different invocation after its output was committed.`));
    }
  }
  return Effect.void;
}
