import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { Agent, UserError, tool, type InputGuardrailFunctionArgs, type OutputGuardrailFunctionArgs } from '@baton/core';
import { z } from 'zod';
import {
  ToolGuardrailFunctionOutputFactory,
  defineInputGuardrail,
  defineOutputGuardrail,
  defineToolInputGuardrail,
  defineToolOutputGuardrail,
} from '../src/index.js';

const agent = new Agent({ name: 'A' });
const inputArgs = { agent, input: 'hi', context: {} } as unknown as InputGuardrailFunctionArgs;

describe('defineInputGuardrail', () => {
  it('is parallel by default, keeps the options, and runs on its own', async () => {
    const guardrail = defineInputGuardrail({ name: 'g', execute: ({ input }) => ({ tripwireTriggered: input === 'hi', outputInfo: { input } }) });
    expect(guardrail).toMatchObject({ type: 'input', name: 'g', runInParallel: true });
    expect('timeoutMs' in guardrail).toBe(false);
    expect(await guardrail.run(inputArgs)).toEqual({
      guardrail: { type: 'input', name: 'g' },
      output: { tripwireTriggered: true, outputInfo: { input: 'hi' } },
    });
    const blocking = defineInputGuardrail({ name: 'b', runInParallel: false, timeoutMs: 50, execute: () => ({ tripwireTriggered: false }) });
    expect(blocking).toMatchObject({ runInParallel: false, timeoutMs: 50 });
  });

  it.each([
    ['sync', () => ({ tripwireTriggered: true, outputInfo: 'sync' })],
    ['async', async () => ({ tripwireTriggered: true, outputInfo: 'async' })],
    ['Effect', () => Effect.succeed({ tripwireTriggered: true, outputInfo: 'Effect' })],
  ] as const)('accepts a %s guardrail function and keeps what it returns', async (kind, execute) => {
    const guardrail = defineInputGuardrail({ name: kind, execute });
    // `execute` is the user's function unchanged, so core sees the Effect itself and runs it in the run fiber.
    expect(guardrail.execute).toBe(execute);
    expect(guardrail.guardrailFunction).toBe(execute);
    expect(Effect.isEffect(guardrail.execute(inputArgs))).toBe(kind === 'Effect');
    expect((await guardrail.run(inputArgs)).output).toEqual({ tripwireTriggered: true, outputInfo: kind });
    // All three fit an agent's inputGuardrails (this line is also a type check).
    expect(new Agent({ name: 'B', inputGuardrails: [guardrail] }).inputGuardrails).toEqual([guardrail]);
  });

  it.each([
    ['a missing options object', undefined, /defineInputGuardrail: expected an options object/],
    ['a non-string name', { name: 3, execute: () => ({ tripwireTriggered: false }) }, /defineInputGuardrail: `name` must be a non-empty string, got number/],
    ['an empty name', { name: ' ', execute: () => ({ tripwireTriggered: false }) }, /`name` must be a non-empty string/],
    ['a non-function execute', { name: 'g', execute: 'yes' }, /defineInputGuardrail\("g"\): `execute` must be a function, got string/],
    ['a missing execute', { name: 'g' }, /`execute` must be a function, got undefined/],
    ['a non-boolean runInParallel', { name: 'g', execute: () => ({ tripwireTriggered: false }), runInParallel: 'no' }, /`runInParallel` must be a boolean/],
    ['a non-positive timeoutMs', { name: 'g', execute: () => ({ tripwireTriggered: false }), timeoutMs: 0 }, /`timeoutMs` must be a positive number, got 0/],
  ])('rejects %s with a UserError naming the field', (_, options, message) => {
    const attempt = () => defineInputGuardrail(options as never);
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow(message);
  });
});

describe('defineOutputGuardrail', () => {
  it('types agentOutput by its first type parameter and runs on its own', async () => {
    type Reply = { response: string };
    const guardrail = defineOutputGuardrail<Reply>({
      name: 'has_phone',
      execute: ({ agentOutput }) => ({ tripwireTriggered: agentOutput.response.includes('650'), outputInfo: agentOutput.response.length }),
    });
    expect(guardrail).toMatchObject({ type: 'output', name: 'has_phone' });
    const args = { agent, agentOutput: { response: 'call 650' }, context: {} } as unknown as OutputGuardrailFunctionArgs<unknown, Reply>;
    expect(await guardrail.run(args)).toEqual({
      guardrail: { type: 'output', name: 'has_phone' },
      agentOutput: { response: 'call 650' },
      agent,
      output: { tripwireTriggered: true, outputInfo: 8 },
    });
    const effectful = defineOutputGuardrail({ name: 'e', execute: () => Effect.succeed({ tripwireTriggered: false }) });
    expect((await effectful.run(args as never)).output).toEqual({ tripwireTriggered: false });
    expect(new Agent({ name: 'B', outputGuardrails: [guardrail, effectful] }).outputGuardrails).toHaveLength(2);
  });

  it('rejects a non-function execute and a non-string name with a UserError', () => {
    expect(() => defineOutputGuardrail({ name: 'o', execute: null } as never)).toThrow(/defineOutputGuardrail\("o"\): `execute` must be a function, got null/);
    expect(() => defineOutputGuardrail({ name: {}, execute: () => ({ tripwireTriggered: false }) } as never)).toThrow(UserError);
  });
});

describe('tool guardrails', () => {
  it('defineToolInputGuardrail / defineToolOutputGuardrail keep the function as `run` and fit tool()', () => {
    const effectful = () => Effect.succeed(ToolGuardrailFunctionOutputFactory.allow());
    const input = defineToolInputGuardrail({ name: 'in', run: effectful });
    const output = defineToolOutputGuardrail({ name: 'out', run: async () => ToolGuardrailFunctionOutputFactory.allow() });
    expect(input).toMatchObject({ type: 'tool_input', name: 'in' });
    expect(input.run).toBe(effectful);
    expect(output).toMatchObject({ type: 'tool_output', name: 'out' });
    const t = tool({ name: 't', description: '', parameters: z.object({}), inputGuardrails: [input], outputGuardrails: [output], execute: () => 'ok' });
    expect(t.inputGuardrails).toEqual([input]);
  });

  it('rejects a non-function run and a non-string name, naming the field', () => {
    expect(() => defineToolInputGuardrail({ name: 'x', run: 42 } as never)).toThrow(/defineToolInputGuardrail\("x"\): `run` must be a function, got number/);
    expect(() => defineToolOutputGuardrail({ name: 7, run: () => undefined } as never)).toThrow(/defineToolOutputGuardrail: `name` must be a non-empty string/);
  });

  it('ToolGuardrailFunctionOutputFactory builds the three behaviours', () => {
    expect(ToolGuardrailFunctionOutputFactory.allow()).toEqual({ behavior: { type: 'allow' } });
    expect(ToolGuardrailFunctionOutputFactory.allow({ ok: 1 })).toEqual({ behavior: { type: 'allow' }, outputInfo: { ok: 1 } });
    expect(ToolGuardrailFunctionOutputFactory.rejectContent('no', 'why')).toEqual({ behavior: { type: 'rejectContent', message: 'no' }, outputInfo: 'why' });
    expect(ToolGuardrailFunctionOutputFactory.throwException({ risk: 'high' })).toEqual({ behavior: { type: 'throwException' }, outputInfo: { risk: 'high' } });
    expect(() => ToolGuardrailFunctionOutputFactory.rejectContent(undefined as never)).toThrow(/`message` must be a string, got undefined/);
  });
});
