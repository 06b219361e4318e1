import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { ToolCallError, UserError } from '@baton/types';
import { Agent, run, tool } from '../src/index.js';

/**
 * Guardrails README: a tool guardrail that throws fails the run with `ToolCallError` wrapping what
 * it threw. As in the reference, that holds for every thrown value, a `ToolCallError` of the
 * guardrail's own included: the run's error is a new `ToolCallError` ("Failed to run function
 * tools: …") whose `error` is the thrown one, never the thrown error itself.
 */
function guardedRun(kind: 'input' | 'output', thrown: Error) {
  const guardrail = {
    name: 'checker',
    run: () => {
      throw thrown;
    },
  };
  const lookup = tool({
    name: 'lookup',
    description: '',
    parameters: z.object({}),
    execute: () => 'found',
    ...(kind === 'input' ? { inputGuardrails: [guardrail] } : { outputGuardrails: [guardrail] }),
  });
  const model = new ScriptedModel([[functionCall('lookup', {}, { callId: 'c1' })], [assistantMessage('answer')]]);
  return run(new Agent({ name: 'Guarded', model, tools: [lookup] }), 'go');
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the run did not fail');
}

describe('an error thrown by a tool guardrail', () => {
  it.each(['input', 'output'] as const)('a ToolCallError thrown by a %s guardrail is wrapped in a new ToolCallError', async (kind) => {
    const thrown = new ToolCallError('checker unavailable', new Error('backend down'));
    const error = await failureOf(guardedRun(kind, thrown));
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error).not.toBe(thrown);
    expect((error as ToolCallError).error).toBe(thrown);
    expect((error as ToolCallError).message).toBe('Failed to run function tools: ToolCallError: checker unavailable');
  });

  it.each(['input', 'output'] as const)('any other error thrown by a %s guardrail is wrapped the same way', async (kind) => {
    const thrown = new UserError('bad guardrail setup');
    const error = await failureOf(guardedRun(kind, thrown));
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).error).toBe(thrown);
    expect((error as ToolCallError).message).toBe('Failed to run function tools: UserError: bad guardrail setup');
  });
});
