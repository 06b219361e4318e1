// The guardrails README: a tool's guardrails wrap each call, one at a time and in order. `allow`
// goes on to the next; the first `rejectContent` answers the model with its message instead (the
// tool does not run, or its output is withheld); the first `throwException` fails the run with a
// ToolCallError wrapping the tripwire (`Tool input guardrail triggered: <name>`, as the reference
// says it). A guardrail returning nothing allows; one returning a verdict Baton cannot read, or
// throwing, fails the run naming it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, resultText } from '@baton/testing';
import { GuardrailExecutionError, ToolCallError, ToolInputGuardrailTripwireTriggered, ToolOutputGuardrailTripwireTriggered } from '@baton/types';
import { Agent, run, tool } from '../src/index.js';

async function failureOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the run to fail, but it succeeded');
}

type Verdict = () => unknown;
const guardrail = (name: string, verdict: Verdict, seen?: string[]) => ({
  name,
  run: () => {
    seen?.push(name);
    return verdict() as never;
  },
});

/** An agent with one `lookup` tool guarded on `kind`, asked to call it once (call id c1), then answering. */
function setup(kind: 'input' | 'output', guardrails: ReturnType<typeof guardrail>[]) {
  const ran: number[] = [];
  const lookup = tool({
    name: 'lookup',
    description: 'looks a row up',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => (ran.push(n), `row ${n}`),
    ...(kind === 'input' ? { inputGuardrails: guardrails } : { outputGuardrails: guardrails }),
  });
  const model = new ScriptedModel([[functionCall('lookup', { n: 7 }, { callId: 'c1' })], [assistantMessage('done')]]);
  return { agent: new Agent({ name: 'A', model, tools: [lookup] }), model, ran };
}

describe.each(['input', 'output'] as const)('tool %s guardrails', (kind) => {
  it('that allow (or return nothing, or no behavior) let the tool output reach the model, each recorded', async () => {
    const seen: string[] = [];
    const { agent, model, ran } = setup(kind, [
      guardrail('explicit', () => ({ outputInfo: 'a', behavior: { type: 'allow' } }), seen),
      guardrail('nothing', () => undefined, seen),
      guardrail('null', () => null, seen),
      guardrail('no_behavior', () => ({ outputInfo: 'c' }), seen),
    ]);
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('done');
    expect(ran).toEqual([7]);
    expect(seen).toEqual(['explicit', 'nothing', 'null', 'no_behavior']);
    expect(resultText(model.lastCall, 'c1')).toBe('row 7');
    const results = kind === 'input' ? result.toolInputGuardrailResults : result.toolOutputGuardrailResults;
    expect(results.map((r) => [r.guardrail.type, r.guardrail.name, r.output.behavior.type])).toEqual([
      [`tool_${kind}`, 'explicit', 'allow'],
      [`tool_${kind}`, 'nothing', 'allow'],
      [`tool_${kind}`, 'null', 'allow'],
      [`tool_${kind}`, 'no_behavior', 'allow'],
    ]);
    expect(results[3]!.output.outputInfo).toBe('c');
  });

  it('the first rejectContent answers the model with its message, and later guardrails do not run', async () => {
    const seen: string[] = [];
    const { agent, model, ran } = setup(kind, [
      guardrail('passes', () => ({ behavior: { type: 'allow' } }), seen),
      guardrail('rejects', () => ({ behavior: { type: 'rejectContent', message: 'not this row' } }), seen),
      guardrail('never', () => ({ behavior: { type: 'throwException' } }), seen),
    ]);
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('done');
    expect(seen).toEqual(['passes', 'rejects']);
    expect(resultText(model.lastCall, 'c1')).toBe('not this row');
    expect(ran).toEqual(kind === 'input' ? [] : [7]);
  });

  it('the first throwException fails the run with a ToolCallError wrapping the tripwire naming the guardrail', async () => {
    const seen: string[] = [];
    const { agent, ran } = setup(kind, [
      guardrail('stops', () => ({ outputInfo: 'bad', behavior: { type: 'throwException' } }), seen),
      guardrail('never', () => ({ behavior: { type: 'allow' } }), seen),
    ]);
    const error = await failureOf(run(agent, 'go'));
    expect(seen).toEqual(['stops']);
    expect(error).toBeInstanceOf(ToolCallError);
    const tripwire = error.error;
    expect(tripwire).toBeInstanceOf(kind === 'input' ? ToolInputGuardrailTripwireTriggered : ToolOutputGuardrailTripwireTriggered);
    const expected = `Tool ${kind} guardrail triggered: stops`;
    expect(tripwire.message).toBe(expected);
    expect(error.message).toBe(`Failed to run function tools: ${expected}`);
    expect(tripwire.result).toEqual({ guardrail: { type: `tool_${kind}`, name: 'stops' }, output: { outputInfo: 'bad', behavior: { type: 'throwException' } } });
    expect(ran).toEqual(kind === 'input' ? [] : [7]);
  });

  it.each([
    ['a number', () => 42, 'expected an object, got number'],
    ['an unknown behavior type', () => ({ behavior: { type: 'maybe' } }), 'unknown behavior type "maybe"'],
    ['a behavior that is not an object', () => ({ behavior: 'allow' }), 'unknown behavior type undefined'],
    ['a null behavior', () => ({ behavior: null }), 'unknown behavior type undefined'],
    ['rejectContent without a string message', () => ({ behavior: { type: 'rejectContent' } }), 'rejectContent needs a string message'],
  ])('a guardrail returning %s fails the run naming it and why', async (_label, verdict, why) => {
    const { agent, ran } = setup(kind, [guardrail('odd', verdict)]);
    const error = await failureOf(run(agent, 'go'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toBe(`Tool ${kind} guardrail "odd" returned an invalid result: ${why}`);
    expect(ran).toEqual(kind === 'input' ? [] : [7]);
  });

  it('a guardrail that throws fails the run with a ToolCallError wrapping its error', async () => {
    const boom = new Error('checker offline');
    const { agent } = setup(kind, [
      guardrail('throws', () => {
        throw boom;
      }),
    ]);
    const error = await failureOf(run(agent, 'go'));
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error.message).toBe('Failed to run function tools: Error: checker offline');
    expect(error.error).toBe(boom);
  });

  it('a guardrail that throws something not an Error fails the run with a ToolCallError carrying its text', async () => {
    const { agent } = setup(kind, [
      guardrail('stringly', () => {
        throw 'checker said no';
      }),
    ]);
    const error = await failureOf(run(agent, 'go'));
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error.message).toBe('Failed to run function tools: checker said no');
    expect(error.error).toBeInstanceOf(Error);
  });
});
