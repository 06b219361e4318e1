import * as Effect from 'effect/Effect';
import { ModelBehaviorError, type LocalToolCallItem, type RunItem } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { invocationFingerprint } from '../../../definitions/internal/invocationFingerprint.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { LocalToolRun } from './localToolRuns.js';

/** A response without local tool calls: nothing to run, nothing left out. */
const NO_LOCAL_CALLS = Effect.succeed({ runs: [] as readonly LocalToolRun[], skipped: new Set<LocalToolCallItem>() as ReadonlySet<LocalToolCallItem> });

/**
 * The call-id screening of function calls (`screenCallIds`), for the local tools' calls: a call id
 * names one invocation (the tool and its commands, operation or actions) for the whole run. An id
 * reused for a different invocation fails the run with `ModelBehaviorError`, so an approval or an
 * output meant for one command is never taken for another; the same invocation again is not run
 * again (its call item stays out of history). Decided when called, as `screenCallIds` is.
 */
export function screenLocalCallIds(
  runs: readonly LocalToolRun[],
  agent: Agent<any, any>,
  record: RunRecord,
): Effect.Effect<{ runs: readonly LocalToolRun[]; skipped: ReadonlySet<LocalToolCallItem> }, ModelBehaviorError> {
  if (runs.length === 0) return NO_LOCAL_CALLS;
  const kept: LocalToolRun[] = [];
  const skipped = new Set<LocalToolCallItem>();
  const committed = committedLocalInvocations(record.generatedItems, agent);
  const inResponse = new Map<string, string>();
  for (const run of runs) {
    const callId = run.call.callId;
    if (typeof callId !== 'string' || callId === '') {
      return Effect.fail(new ModelBehaviorError(`A ${run.kind} call has no call id; a call without one cannot be told apart from another, so it is not run.`));
    }
    const invocation = localInvocation(run.call);
    const earlier = inResponse.get(callId) ?? committed.get(callId);
    if (earlier !== undefined && earlier !== invocation) {
      const where = inResponse.has(callId) ? 'another call in the same response' : 'a call whose output is already committed';
      return Effect.fail(new ModelBehaviorError(`Tool call id ${callId} was reused by ${where} for a different invocation (${run.kind} tool "${run.tool.name}").`));
    }
    if (earlier !== undefined) {
      skipped.add(run.call);
      continue;
    }
    inResponse.set(callId, invocation);
    kept.push(run);
  }
  return Effect.succeed({ runs: kept, skipped });
}

/** What a local call does, comparable as `invocationFingerprint` compares function calls. */
function localInvocation(call: LocalToolCallItem): string {
  const payload = call.type === 'shell_call' ? call.action : call.type === 'apply_patch_call' ? call.operation : (call.actions ?? call.action);
  return invocationFingerprint(call.type, { arguments: JSON.stringify(payload ?? null), caller: (call as { caller?: unknown }).caller });
}

const OUTPUT_OF: Record<string, LocalToolCallItem['type']> = {
  shell_call_output: 'shell_call',
  apply_patch_call_output: 'apply_patch_call',
  computer_call_result: 'computer_call',
};

function committedLocalInvocations(items: readonly RunItem[], agent: Agent<any, any>): Map<string, string> {
  const calls = new Map<string, LocalToolCallItem>();
  const answered = new Set<string>();
  for (const item of items) {
    if (item.agent !== agent) continue;
    const raw = item.rawItem as { type?: string; callId?: string };
    if (item.type === 'tool_call_item' && (raw.type === 'shell_call' || raw.type === 'apply_patch_call' || raw.type === 'computer_call')) {
      calls.set(raw.callId!, raw as LocalToolCallItem);
    } else if (item.type === 'tool_call_output_item' && raw.type !== undefined && OUTPUT_OF[raw.type] !== undefined) {
      answered.add(raw.callId!);
    }
  }
  const committed = new Map<string, string>();
  for (const callId of answered) {
    const call = calls.get(callId);
    if (call) committed.set(callId, localInvocation(call));
  }
  return committed;
}
