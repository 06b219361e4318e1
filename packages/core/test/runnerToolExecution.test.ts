import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, Runner, UserError, setDefaultModelProvider, tool, type ModelProvider } from '../src/index.js';

describe('toolExecution', () => {
  it('refuses a bad maxFunctionToolConcurrency or preApprovalInputGuardrails when the Runner is made', () => {
    for (const maxFunctionToolConcurrency of [0, 1.5, -2]) {
      expect(() => new Runner({ toolExecution: { maxFunctionToolConcurrency } })).toThrow(UserError);
    }
    expect(() => new Runner({ toolExecution: { maxFunctionToolConcurrency: 0 } })).toThrow('toolExecution.maxFunctionToolConcurrency must be an integer greater than or equal to 1.');
    expect(() => new Runner({ toolExecution: { preApprovalInputGuardrails: 'yes' as never } })).toThrow('toolExecution.preApprovalInputGuardrails must be a boolean when provided.');
  });

  it('runs at most maxFunctionToolConcurrency calls of a response at once', async () => {
    let running = 0;
    let peak = 0;
    const slow = tool({
      name: 'slow',
      description: 'Takes a while',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return n;
      },
    });
    const calls = [1, 2, 3, 4].map((n) => functionCall('slow', { n }, { callId: `s${n}` }));
    const model = new ScriptedModel([calls, [assistantMessage('done')]]);
    const result = await new Runner({ toolExecution: { maxFunctionToolConcurrency: 2 } }).run(new Agent({ name: 'Slow', model, tools: [slow] }), 'go');
    expect(result.finalOutput).toBe('done');
    expect(peak).toBe(2);
  });
});

describe('a Runner without a model provider', () => {
  const providerOf = (): ModelProvider & { lookups: number } => {
    const provider = { lookups: 0, getModel: () => ((provider.lookups += 1), new ScriptedModel([[assistantMessage('hi')]])) };
    return provider;
  };
  afterEach(() => setDefaultModelProvider(providerOf()));

  it('keeps the default provider it first resolved, even when the default changes later', async () => {
    const first = providerOf();
    const later = providerOf();
    setDefaultModelProvider(first);
    const runner = new Runner({ model: 'some-model' });
    await runner.run(new Agent({ name: 'A' }), 'hi');
    setDefaultModelProvider(later);
    await runner.run(new Agent({ name: 'A' }), 'hi');
    expect(first.lookups).toBe(2);
    expect(later.lookups).toBe(0);
    // A runner made after the change resolves the new default.
    await new Runner({ model: 'some-model' }).run(new Agent({ name: 'A' }), 'hi');
    expect(later.lookups).toBe(1);
  });
});
