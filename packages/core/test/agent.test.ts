import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import {
  Agent,
  ModelBehaviorError,
  RunContext,
  Runner,
  UserError,
  getDefaultModelProvider,
  run,
  setDefaultModelProvider,
  tool,
  type Model,
  type ModelProvider,
} from '../src/index.js';

const echo = tool({ name: 'echo', description: 'Echo', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });

describe('Agent', () => {
  it('defaults its options', () => {
    const agent = new Agent({ name: 'Plain' });
    expect(agent.instructions).toBe('');
    expect(agent.handoffDescription).toBe('');
    expect(agent.tools).toEqual([]);
    expect(agent.handoffs).toEqual([]);
    expect(agent.outputType).toBe('text');
    expect(agent.toolUseBehavior).toBe('run_llm_again');
    expect(agent.resetToolChoice).toBe(true);
    expect(agent.getSerializedOutputType()).toBe('text');
    expect(JSON.stringify({ agent })).toBe('{"agent":{"name":"Plain"}}');
  });

  it('asks for structured output as the reference does: a zod schema as zod describes its output, named output, not strict', () => {
    const agent = new Agent({ name: 'S', outputType: z.object({ city: z.string(), note: z.string().optional() }) });
    expect(agent.getSerializedOutputType()).toEqual({
      type: 'json_schema',
      name: 'output',
      strict: false,
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { city: { type: 'string' }, note: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
    });
  });
});

describe('instructions', () => {
  it.each([
    ['a string', 'Be brief.', 'Be brief.'],
    ['a function of the context and agent', (ctx: RunContext<{ user: string }>, agent: Agent<{ user: string }>) => `Help ${ctx.context.user} as ${agent.name}.`, 'Help ada as Helper.'],
    ['an async function', async (ctx: RunContext<{ user: string }>) => `Hi ${ctx.context.user}`, 'Hi ada'],
  ] as const)('can be %s; the model receives the result as systemInstructions', async (_label, instructions, expected) => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const agent = new Agent<{ user: string }>({ name: 'Helper', instructions: instructions as never, model });
    await run(agent, 'hello', { context: { user: 'ada' } });
    expect(model.calls[0]!.request.systemInstructions).toBe(expected);
  });

  it('is left out of the request when empty', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await run(new Agent({ name: 'A', model }), 'hello');
    expect(model.calls[0]!.request).not.toHaveProperty('systemInstructions');
  });

  it('is evaluated every turn, seeing the context as it is then', async () => {
    const model = new ScriptedModel([[{ type: 'function_call', name: 'bump', callId: 'c1', arguments: '{}' }], [assistantMessage('done')]]);
    const bump = tool({
      name: 'bump',
      description: '',
      parameters: z.object({}),
      execute: (_input, ctx) => {
        (ctx.context as { n: number }).n += 1;
        return 'bumped';
      },
    });
    const agent = new Agent<{ n: number }>({ name: 'A', model, tools: [bump], instructions: (ctx) => `n=${ctx.context.n}` });
    await run(agent, 'go', { context: { n: 0 } });
    expect(model.calls.map((c) => c.request.systemInstructions)).toEqual(['n=0', 'n=1']);
  });

  it('a throwing instructions function fails the run with its own error', async () => {
    const boom = new Error('no prompt today');
    const model = new ScriptedModel([[assistantMessage('never')]]);
    const agent = new Agent({
      name: 'A',
      model,
      instructions: () => {
        throw boom;
      },
    });
    await expect(run(agent, 'go')).rejects.toBe(boom);
    expect(model.calls).toHaveLength(0);
  });
});

describe('model resolution', () => {
  function provider(models: Record<string, Model>): ModelProvider & { asked: Array<string | undefined> } {
    const asked: Array<string | undefined> = [];
    return {
      asked,
      getModel(name) {
        asked.push(name);
        const model = models[name ?? 'default'];
        if (!model) throw new Error(`unknown model ${name}`);
        return model;
      },
    };
  }

  it('resolves a model name through the runner’s model provider', async () => {
    const fast = new ScriptedModel([[assistantMessage('from fast')]]);
    const slow = new ScriptedModel([]);
    const p = provider({ fast, slow });
    const result = await new Runner({ modelProvider: p }).run(new Agent({ name: 'A', model: 'fast' }), 'hi');
    expect(result.finalOutput).toBe('from fast');
    expect(p.asked).toEqual(['fast']);
    expect(fast.calls).toHaveLength(1);
    expect(slow.calls).toHaveLength(0);
  });

  it('asks the provider for its default model when the agent names none', async () => {
    const p = provider({ default: new ScriptedModel([[assistantMessage('default model')]]) });
    const result = await new Runner({ modelProvider: p }).run(new Agent({ name: 'A' }), 'hi');
    expect(result.finalOutput).toBe('default model');
    expect(p.asked).toEqual([undefined]);
  });

  it('lets the run override every agent’s model (by instance or by name)', async () => {
    const own = new ScriptedModel([]);
    const override = new ScriptedModel([[assistantMessage('override')], [assistantMessage('by name')]]);
    const p = provider({ other: override });
    const agent = new Agent({ name: 'A', model: own });
    await expect(run(agent, 'hi', { model: override }).then((r) => r.finalOutput)).resolves.toBe('override');
    await expect(new Runner({ modelProvider: p }).run(agent, 'hi', { model: 'other' }).then((r) => r.finalOutput)).resolves.toBe('by name');
    expect(own.calls).toHaveLength(0);
  });

  it('uses the default model provider when the runner has none, and a UserError says when none is set', async () => {
    const agent = new Agent({ name: 'A', model: 'named' });
    const error = await run(agent, 'hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/No model provider is set/);
    const p = provider({ named: new ScriptedModel([[assistantMessage('global')]]) });
    setDefaultModelProvider(p);
    expect(getDefaultModelProvider()).toBe(p);
    await expect(run(agent, 'hi').then((r) => r.finalOutput)).resolves.toBe('global');
    expect(() => setDefaultModelProvider({} as ModelProvider)).toThrow(UserError);
  });

  it('fails with a UserError when the provider returns no model', async () => {
    const runner = new Runner({ modelProvider: { getModel: () => undefined as unknown as Model } });
    await expect(runner.run(new Agent({ name: 'A', model: 'ghost' }), 'hi')).rejects.toThrow(/returned no model for "ghost"/);
  });

  it('merges run model settings over the agent’s', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const agent = new Agent({ name: 'A', model, modelSettings: { temperature: 0.1, maxTokens: 5 } });
    await run(agent, 'hi', { modelSettings: { temperature: 0.9 } });
    expect(model.calls[0]!.request.modelSettings).toEqual({ temperature: 0.9, maxTokens: 5 });
  });
});

describe('clone()', () => {
  it('copies the agent with some options replaced, leaving the original unchanged', async () => {
    const model = new ScriptedModel([[assistantMessage('from the clone')]]);
    const original = new Agent({ name: 'Original', instructions: 'Be formal.', model, tools: [echo], modelSettings: { temperature: 0 } });
    const copy = original.clone({ name: 'Copy', instructions: 'Be casual.' });
    expect(copy).toBeInstanceOf(Agent);
    expect(copy).not.toBe(original);
    expect(copy.name).toBe('Copy');
    expect(copy.instructions).toBe('Be casual.');
    expect(copy.tools).toEqual([echo]);
    expect(copy.model).toBe(model);
    expect(copy.modelSettings).toEqual({ temperature: 0 });
    expect(original.name).toBe('Original');
    expect(original.instructions).toBe('Be formal.');
    const result = await run(copy, 'hi');
    expect(result.finalOutput).toBe('from the clone');
    expect(result.lastAgent).toBe(copy);
    expect(model.calls[0]!.request.systemInstructions).toBe('Be casual.');
  });

  it('can change the output type, and validates the overrides like the constructor', async () => {
    const model = new ScriptedModel([[assistantMessage('{"n":3}')]]);
    const typed = new Agent({ name: 'A', model }).clone({ outputType: z.object({ n: z.number() }) });
    const result = await run(typed, 'count');
    expect(result.finalOutput).toEqual({ n: 3 });
    expect(() => typed.clone({ tools: [echo, echo] })).toThrow(UserError);
  });
});

describe('agent.processFinalOutput with an asynchronous Standard Schema', () => {
  it('says the validation returned a Promise and points to parseFinalOutput, which waits for it', async () => {
    const outputType = {
      '~standard': {
        version: 1 as const,
        vendor: 'async-test',
        validate: async (value: unknown) => ({ value }),
        jsonSchema: { input: () => ({ type: 'object', properties: {}, additionalProperties: false }) },
      },
    };
    const agent = new Agent({ name: 'Async', outputType });
    expect(() => agent.processFinalOutput('{}')).toThrow(/validation returned a Promise.*parseFinalOutput/);
    await expect(agent.parseFinalOutput('{}')).resolves.toEqual({ ok: true, value: {} });
  });
});

describe('a run with an asynchronous Standard Schema output type (a deliberate difference: the reference rejects the run)', () => {
  // Accepts a positive n only.
  const asyncOutput = () => ({
    '~standard': {
      version: 1 as const,
      vendor: 'async-test',
      validate: async (value: unknown) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return (value as { n: number }).n > 0 ? { value: { ...(value as object), checked: true } } : { issues: [{ message: 'n must be positive' }] };
      },
      jsonSchema: { input: () => ({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false }) },
    },
  });

  it('waits for the validation: its value is the final output', async () => {
    const agent = new Agent({ name: 'Async', outputType: asyncOutput(), model: new ScriptedModel([[assistantMessage('{"n":1}')]]) });
    expect((await run(agent, 'go')).finalOutput).toEqual({ n: 1, checked: true });
  });

  it('an answer the validation refuses fails the run as any refused answer does', async () => {
    const agent = new Agent({ name: 'Async', outputType: asyncOutput(), model: new ScriptedModel([[assistantMessage('{"n":0}')]]) });
    const error = await run(agent, 'go').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toMatch(/did not match the expected schema/);
  });

  it('errorHandlers.invalidFinalOutput answers a refused answer', async () => {
    const agent = new Agent({ name: 'Async', outputType: asyncOutput(), model: new ScriptedModel([[assistantMessage('{"n":0}')]]) });
    const result = await run(agent, 'go', { errorHandlers: { invalidFinalOutput: () => ({ finalOutput: { n: 5 } }) } });
    expect(result.finalOutput).toMatchObject({ n: 5 });
  });
});

describe('a callable Standard Schema (as some libraries make them)', () => {
  it('is an output type like any other', () => {
    const standard = {
      version: 1 as const,
      vendor: 'callable-test',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => ({ type: 'object', properties: { value: { type: 'string' } }, required: ['value'], additionalProperties: false }) },
    };
    const outputType = Object.assign(() => undefined, { '~standard': standard });
    const agent = new Agent({ name: 'Callable', outputType });
    expect(agent.processFinalOutput('{"value":"ok"}')).toEqual({ value: 'ok' });
  });
});
