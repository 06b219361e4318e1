import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, functionCall } from '@baton/testing';
import { ToolCallError, ToolInputGuardrailTripwireTriggered, ToolOutputGuardrailTripwireTriggered } from '@baton/types';
import { Agent, run, tool, type ToolGuardrailFunctionOutput } from '../src/index.js';

/** A tool whose input or output guardrail allows the first call and trips on the second. */
function guardedAgent(kind: 'input' | 'output') {
  let calls = 0;
  const guardrail = {
    name: `${kind}_check`,
    run: (): ToolGuardrailFunctionOutput => {
      calls += 1;
      return { outputInfo: `${kind}-${calls}`, behavior: { type: calls === 2 ? 'throwException' : 'allow' } };
    },
  };
  const lookup = tool({
    name: 'lookup',
    description: '',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => `row ${n}`,
    ...(kind === 'input' ? { inputGuardrails: [guardrail] } : { outputGuardrails: [guardrail] }),
  });
  const model = new ScriptedModel([[functionCall('lookup', { n: 1 }, { callId: 'c1' })], [functionCall('lookup', { n: 2 }, { callId: 'c2' })]]);
  return new Agent({ name: 'Guarded', model, tools: [lookup] });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the run did not fail');
}

describe('a tool guardrail tripwire that ends the run', () => {
  it.each(['input', 'output'] as const)('carries the run state, with the %s guardrail results of every turn', async (kind) => {
    for (const stream of [false, true]) {
      const error = await failureOf(
        stream
          ? run(guardedAgent(kind), 'go', { stream: true }).then(async (result) => {
              await result.completed;
            })
          : run(guardedAgent(kind), 'go'),
      );
      expect(error).toBeInstanceOf(ToolCallError);
      const tripwire = (error as ToolCallError).error;
      expect(tripwire).toBeInstanceOf(kind === 'input' ? ToolInputGuardrailTripwireTriggered : ToolOutputGuardrailTripwireTriggered);
      const { state } = tripwire as ToolInputGuardrailTripwireTriggered;
      expect(state).toBeDefined();
      expect(state).toBe((error as ToolCallError).state);
      const results = kind === 'input' ? state!.toolInputGuardrailResults : state!.toolOutputGuardrailResults;
      expect(results.map((result) => result.output.outputInfo)).toEqual([`${kind}-1`, `${kind}-2`]);
    }
  });

  it('a tool’s own plain error is left without a state', async () => {
    const plain = new Error('disk full');
    const failing = tool({
      name: 'lookup',
      description: '',
      parameters: z.object({}),
      errorFunction: null,
      execute: () => {
        throw plain;
      },
    });
    const error = await failureOf(run(new Agent({ name: 'A', model: new ScriptedModel([[functionCall('lookup', {})]]), tools: [failing] }), 'go'));
    expect((error as ToolCallError).error).toBe(plain);
    expect('state' in plain).toBe(false);
  });
});
