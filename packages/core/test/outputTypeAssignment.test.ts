import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { UserError } from '@baton/types';
import { Agent, Runner, RunContext, RunState, run } from '../src/index.js';
import { recordingTracer } from './helpers.js';

/**
 * An agent's `outputType` is assignable, as on the reference, and a zod object's JSON form is made
 * when a run first asks the model with it: a zod object that has none (a `z.custom()` field) fails
 * that turn before the model is called, not the agent's construction.
 */

const undescribable = () => z.object({ value: z.custom<string>() });
const answer = () => new ScriptedModel([[assistantMessage('{"value":"ok"}')]]);

describe('an outputType with no JSON form', () => {
  it('the agent is made; a run fails with a UserError naming it before the model is called, its turn not counted', async () => {
    const model = answer();
    const agent = new Agent({ name: 'Custom', model, outputType: undescribable() });
    const state = new RunState(new RunContext(), 'x', agent, 1);
    const error = await run(agent, state).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('Agent "Custom" outputType');
    expect(model.calls).toHaveLength(0);
    expect(state.currentTurn).toBe(0);
  });

  it('streamed: the run ends with the UserError, the model not called', async () => {
    const model = answer();
    const agent = new Agent({ name: 'Custom', model, outputType: undescribable() });
    const result = await run(agent, 'x', { stream: true });
    const error = await result.completed.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserError);
    expect(model.calls).toHaveLength(0);
  });

  it('traced: the agent span is named and the run fails with the same UserError', async () => {
    const { tracer, spans } = recordingTracer();
    const agent = new Agent({ name: 'Custom', model: answer(), outputType: undescribable() });
    const error = await new Runner({ tracer }).run(agent, 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserError);
    expect(spans.find((s) => s.name === 'baton.agent')?.attributes).toMatchObject({ 'baton.agent.name': 'Custom', 'baton.agent.output_type': 'output' });
  });

  it('a state saved after the failure resumes once a describable outputType is assigned', async () => {
    const model = answer();
    const agent = new Agent({ name: 'Custom', model, outputType: undescribable() as z.ZodType<{ value: string }> });
    const state = new RunState(new RunContext(), 'x', agent, 1);
    await run(agent, state).catch(() => undefined);
    const restored = await RunState.fromString(agent, state.toString());
    agent.outputType = z.object({ value: z.string() });
    const resumed = await run(agent, restored, { maxTurns: 1 });
    expect(resumed.finalOutput).toEqual({ value: 'ok' });
    expect(resumed.state.currentTurn).toBe(1);
    expect(model.calls).toHaveLength(1);
  });
});

describe('assigning outputType', () => {
  it.each([
    ['a zod object', () => z.object({ city: z.string() }), { type: 'json_schema', name: 'output', strict: true }],
    ['a JSON schema definition', () => ({ type: 'json_schema' as const, name: 'weather', strict: true, schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } }), { type: 'json_schema', name: 'weather', strict: true }],
    ['text', () => 'text' as const, 'text'],
  ])('%s: the next request asks for it', async (_label, make, expected) => {
    const model = new ScriptedModel([[assistantMessage('{"city":"Oslo"}')], [assistantMessage('{"city":"Oslo"}')]]);
    const agent = new Agent<unknown, any>({ name: 'Weather', model, outputType: z.object({ other: z.number() }) });
    await run(agent, 'x').catch(() => undefined);
    agent.outputType = make();
    const result = await run(agent, 'x');
    expect(result.finalOutput).toEqual(expected === 'text' ? '{"city":"Oslo"}' : { city: 'Oslo' });
    const asked = model.calls[1]!.request.outputType;
    if (typeof expected === 'string') expect(asked).toBe(expected);
    else {
      expect(asked).toMatchObject(expected);
      expect((asked as { schema: { properties: object } }).schema.properties).toHaveProperty('city');
    }
  });

  it.each([
    ['a string other than text', 'json', /`outputType` must be 'text', a zod/],
    ['a non-object zod schema', z.string(), /outputType: the schema must describe an object/],
    ['a JSON schema definition without a name', { type: 'json_schema', strict: true, schema: { type: 'object' } }, /outputType/],
  ])('%s: taken as the reference takes it; the next run fails with a UserError naming it, the model not called', async (_label, value, message) => {
    const model = answer();
    const agent = new Agent<unknown, any>({ name: 'Weather', model, outputType: z.object({ value: z.string() }) });
    agent.outputType = value as never;
    expect(agent.outputType).toBe(value);
    const error = await run(agent, 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain('Agent "Weather"');
    expect(model.calls).toHaveLength(0);
  });

  it('a schema given at construction other than a zod object is checked there, as on the reference', () => {
    expect(() => new Agent({ name: 'Weather', outputType: z.string() as never })).toThrow(/Agent "Weather" outputType: the schema must describe an object/);
    expect(() => new Agent({ name: 'Weather', outputType: z.object({ value: z.custom<string>() }) })).not.toThrow();
  });
});

describe('an output type is described once per assignment', () => {
  it('each run asks with the description made once; an assignment is described again at the next run', async () => {
    let described = 0;
    const counted = () => ({
      '~standard': {
        version: 1 as const,
        vendor: 'counted',
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: () => {
            described += 1;
            return { type: 'object', properties: { value: { type: 'string' } }, required: ['value'], additionalProperties: false };
          },
        },
      },
    });
    const model = new ScriptedModel([[assistantMessage('{"value":"a"}')], [assistantMessage('{"value":"b"}')], [assistantMessage('{"value":"c"}')]]);
    const agent = new Agent<unknown, any>({ name: 'Counted', model, outputType: counted() });
    expect(described).toBe(1);
    await run(agent, 'x');
    await run(agent, 'y');
    expect(described).toBe(1);
    agent.outputType = counted();
    expect(described).toBe(1);
    expect((await run(agent, 'z')).finalOutput).toEqual({ value: 'c' });
    expect(described).toBe(2);
  });
});
