import * as Effect from 'effect/Effect';
import {
  GuardrailExecutionError,
  ToolCallError,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  type AgentsError,
  type ToolGuardrailFunctionOutput,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
} from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { toPublicError, type RunFailure } from '../failures.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { runGuardrailFunction } from '../userCode.js';
import type { StepRunner } from '../../../definitions/stepRunner.js';
import { step } from './steps.js';
import { jsonCodec } from './stepCodecs.js';
import type { TracingDecision } from './span.js';
import { noteToolOutputGuardrailCall } from './toolGuardrailCalls.js';

/**
 * Where a call's tool guardrails run as steps: the run's step runner and the keys' prefix
 * (`tool:{callId}`); and whether the run is traced (the guardrail functions run in the tool's span).
 */
export interface ToolGuardrailSteps extends TracingDecision {
  readonly runner: StepRunner | undefined;
  readonly scope: string;
}

// A tool's input and output guardrails, as a run calls them around each tool call.

/** A tool that may have guardrails (a function tool, or a local tool: shell, apply-patch, computer) and the call they check. */
interface GuardedTool<TCall> {
  readonly inputGuardrails?: readonly ToolInputGuardrail<any, TCall>[] | undefined;
  readonly outputGuardrails?: readonly ToolOutputGuardrail<any, TCall>[] | undefined;
}

/** Tool input guardrails, in order: returns the rejection message, or undefined to run the tool. */
export function runToolInputGuardrails<TCall extends { readonly callId: string }>(
  tool: GuardedTool<TCall>,
  call: TCall,
  agent: Agent<any, any>,
  record: RunRecord,
  steps: ToolGuardrailSteps,
): Effect.Effect<string | undefined, RunFailure> {
  return runToolGuardrails(
    'input',
    steps,
    tool.inputGuardrails ?? [],
    (guardrail) => guardrail.run({ context: record.context, agent, toolCall: call }),
    (result) => {
      const tagged = { guardrail: { type: 'tool_input' as const, name: result.name }, output: result.output };
      record.toolInputGuardrailResults.push(tagged);
      return new ToolInputGuardrailTripwireTriggered(`Tool input guardrail triggered: ${result.name}`, tagged);
    },
  );
}

/** Tool output guardrails, in order: returns the replacement output, or undefined to keep it. */
export function runToolOutputGuardrails<TCall extends { readonly callId: string }>(
  tool: GuardedTool<TCall>,
  call: TCall,
  output: unknown,
  agent: Agent<any, any>,
  record: RunRecord,
  steps: ToolGuardrailSteps,
): Effect.Effect<string | undefined, RunFailure> {
  return runToolGuardrails(
    'output',
    steps,
    tool.outputGuardrails ?? [],
    (guardrail) => guardrail.run({ context: record.context, agent, toolCall: call, output }),
    (result) => {
      const tagged = { guardrail: { type: 'tool_output' as const, name: result.name }, output: result.output };
      record.toolOutputGuardrailResults.push(tagged);
      noteToolOutputGuardrailCall(tagged, call.callId);
      return new ToolOutputGuardrailTripwireTriggered(`Tool output guardrail triggered: ${result.name}`, tagged);
    },
  );
}

/**
 * Runs tool guardrails one at a time: `allow` goes on, the first `rejectContent` answers with its
 * message, the first `throwException` fails the run with `ToolCallError` wrapping the tripwire.
 */
function runToolGuardrails<G extends { name: string }>(
  kind: 'input' | 'output',
  steps: ToolGuardrailSteps,
  guardrails: readonly G[],
  run: (guardrail: G) => ToolGuardrailFunctionOutput | Promise<ToolGuardrailFunctionOutput>,
  recordResult: (result: { name: string; output: ToolGuardrailFunctionOutput }) => AgentsError,
): Effect.Effect<string | undefined, RunFailure> {
  if (guardrails.length === 0) return Effect.succeed(undefined);
  return Effect.gen(function* () {
    for (const guardrail of guardrails) {
      const call = runGuardrailFunction(steps, () => run(guardrail));
      const key = () => `${steps.scope}:guardrail:${kind}:${guardrail.name}`;
      const raw = yield* step(steps.runner, 'guardrail', key, jsonCodec, call).pipe(Effect.mapError(asToolCallError));
      const output = yield* checkToolGuardrailOutput(kind, guardrail.name, raw);
      const tripwire = recordResult({ name: guardrail.name, output });
      if (output.behavior.type === 'rejectContent') return output.behavior.message;
      if (output.behavior.type === 'throwException') {
        return yield* Effect.fail(new ToolCallError(`Failed to run function tools: ${tripwire.message}`, tripwire));
      }
    }
    return undefined;
  });
}

const BEHAVIORS = new Set(['allow', 'rejectContent', 'throwException']);

/** A missing behaviour means allow (as in the reference); anything else malformed fails the run. */
function checkToolGuardrailOutput(
  kind: 'input' | 'output',
  name: string,
  output: ToolGuardrailFunctionOutput | undefined,
): Effect.Effect<ToolGuardrailFunctionOutput, RunFailure> {
  const invalid = (why: string) =>
    Effect.fail(new GuardrailExecutionError(`Tool ${kind} guardrail "${name}" returned an invalid result: ${why}`, new TypeError(why)));
  if (output === undefined || output === null) return Effect.succeed({ behavior: { type: 'allow' } });
  if (typeof output !== 'object') return invalid(`expected an object, got ${typeof output}`);
  const behavior = output.behavior as { type?: unknown; message?: unknown } | undefined;
  if (behavior === undefined) return Effect.succeed({ ...output, behavior: { type: 'allow' } });
  if (typeof behavior !== 'object' || behavior === null || !BEHAVIORS.has(behavior.type as string)) {
    return invalid(`unknown behavior type ${JSON.stringify((behavior as { type?: unknown } | null)?.type)}`);
  }
  if (behavior.type === 'rejectContent' && typeof behavior.message !== 'string') return invalid('rejectContent needs a string message');
  return Effect.succeed(output);
}

/**
 * A tool guardrail that throws fails the run with a new `ToolCallError` wrapping what it threw, a
 * `ToolCallError` of its own included (as the reference does).
 */
function asToolCallError(failure: RunFailure): RunFailure {
  const error = toPublicError(failure);
  return new ToolCallError(`Failed to run function tools: ${String(error)}`, error instanceof Error ? error : new Error(String(error)));
}
