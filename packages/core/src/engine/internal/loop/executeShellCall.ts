import * as Effect from 'effect/Effect';
import { RunToolCallOutputItem, type ShellCallItem, type ShellCallOutputContent, type ShellCallResultItem, type ShellResult, type ShellTool, type LocalShellTool } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { abortablePromise } from '../abort.js';
import type { RunFailure } from '../failures.js';
import { withLazySignal } from '../lazyAbort.js';
import { withSpanContext, annotate } from './span.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import { toolEnded, toolStarted } from './lifecycleHooks.js';
import { decideLocalApproval } from './localToolApproval.js';
import { commitLocalOutput, errorText, localToolSpan, noteLocalToolError } from './localToolOutput.js';
import type { LoopEnv } from './loopEnv.js';
import { jsonCodec } from './stepCodecs.js';
import { step } from './steps.js';
import { runToolInputGuardrails, runToolOutputGuardrails } from './toolGuardrails.js';

/** What a shell call produced, as its step records it: the shell's result, or the error it threw. */
type ShellOutcome = { readonly result: ShellResult } | { readonly error: string };

/**
 * Runs one shell call: approval (the item shows the commands), then the host's `Shell` with the
 * run's abort signal (a cancelled run stops the commands), then the `shell_call_output` item.
 * A shell that throws answers the model with the error as stderr; the run goes on. The shell's
 * run is the call's `tool:{callId}` step, so a durable run never runs the commands twice. The
 * tool's input guardrails check the call before the commands run, its output guardrails the
 * outputs before the model sees them; a `rejectContent` answers the model with its message as
 * stderr in their place.
 */
export function executeShellCall(call: ShellCallItem, tool: ShellTool, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<ToolRunOutcome, RunFailure> {
  return Effect.gen(function* () {
    const approval = yield* decideLocalApproval(call, tool, () => tool.needsApproval(record.context, call.action, call.callId), agent, record, env);
    if (approval.status === 'pending') return { type: 'approval', item: approval.item } as const;
    if (approval.status === 'rejected') return yield* refused(call, approval.message, agent, env);
    return yield* runShell(call, tool, agent, record, env).pipe(localToolSpan(tool, call, call.action, env));
  });
}

function runShell(call: ShellCallItem, tool: ShellTool, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<ToolRunOutcome, RunFailure> {
  return Effect.gen(function* () {
    yield* toolStarted(agent, tool, call, record, env);
    const steps = { runner: env.stepRunner, traced: env.traced, scope: `tool:${call.callId}` };
    // Only a local shell's calls run here (a hosted shell's never reach the host), so it has the guardrails.
    const rejection = yield* runToolInputGuardrails(tool as LocalShellTool, call, agent, record, steps);
    if (rejection !== undefined) return yield* refused(call, rejection, agent, env);
    const shell = tool.shell!;
    const invoked: Effect.Effect<ShellOutcome> = withSpanContext(env, (enter) =>
      abortablePromise((abort) => enter(() => shell.run(call.action, withLazySignal({}, abort)))),
    ).pipe(
      Effect.map((result): ShellOutcome => ({ result: { output: Array.isArray(result?.output) ? result.output : [], ...pick(result) } })),
      Effect.catch((error: unknown) => noteLocalToolError(tool, call, error, env).pipe(Effect.as<ShellOutcome>({ error: errorText(error) }))),
    );
    const outcome = yield* step(env.stepRunner, 'tool', () => `tool:${call.callId}`, jsonCodec as never, invoked) as Effect.Effect<ShellOutcome>;
    const outputs: ShellCallOutputContent[] =
      'error' in outcome ? [{ stdout: '', stderr: outcome.error, outcome: { type: 'exit', exitCode: null } }] : outcome.result.output;
    const raw = outputItem(call, outputs);
    if ('result' in outcome) {
      if (typeof outcome.result.maxOutputLength === 'number') raw.maxOutputLength = outcome.result.maxOutputLength;
      if (outcome.result.providerData && Object.keys(outcome.result.providerData).length > 0) raw.providerData = outcome.result.providerData;
    }
    const text = JSON.stringify(outputs);
    yield* toolEnded(agent, tool, text, call, record, env);
    const replaced = yield* runToolOutputGuardrails(tool as LocalShellTool, call, outputs, agent, record, steps);
    if (replaced !== undefined) return yield* refused(call, replaced, agent, env);
    yield* annotate(env, () => ({ 'baton.tool.output': text }));
    return yield* commitLocalOutput(new RunToolCallOutputItem(raw, agent, outputs), env);
  });
}

/** The model's answer for a call that did not run or whose outputs are withheld: the reason as stderr. */
function refused(call: ShellCallItem, message: string, agent: Agent<any, any>, env: LoopEnv): Effect.Effect<ToolRunOutcome> {
  const raw = outputItem(call, [{ stdout: '', stderr: message, outcome: { type: 'exit', exitCode: null } }]);
  return commitLocalOutput(new RunToolCallOutputItem(raw, agent, message), env);
}

function pick(result: ShellResult | undefined): Partial<ShellResult> {
  const out: Partial<ShellResult> = {};
  if (typeof result?.maxOutputLength === 'number') out.maxOutputLength = result.maxOutputLength;
  if (result?.providerData && typeof result.providerData === 'object') out.providerData = result.providerData;
  return out;
}

function outputItem(call: ShellCallItem, output: ShellCallOutputContent[]): ShellCallResultItem {
  return { type: 'shell_call_output', callId: call.callId, output, ...(call.caller ? { caller: call.caller } : {}) };
}
