import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelError } from '@baton/testing';
import {
  Agent,
  InvalidToolInputError,
  ModelBehaviorError,
  Runner,
  ToolCallError,
  UserError,
  run,
  tool,
  type AgentOptions,
  type ToolCallErrorBehavior,
  setSensitiveDataLoggingEnabled,
} from '../src/index.js';
import { resultText, watchUnhandledRejections } from './helpers.js';

const lookup = tool({
  name: 'lookup',
  description: 'Look a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `definition of ${word}`,
});

describe('invalid agent configuration fails at construction with a UserError naming the field', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['duplicate tool names', { tools: [lookup, lookup] }, /duplicate tool name "lookup" in `tools`/],
    ['a tools entry that is not a tool', { tools: [{ name: 'x' }] }, /`tools\[0\]` is not a tool/],
    ['tools that is not an array', { tools: lookup }, /`tools` must be an array/],
    ['instructions of the wrong type', { instructions: 42 }, /`instructions` must be a string or a function, got number/],
    ['a model that is not a model', { model: { name: 'gpt' } }, /`model` must be a model name or an object with getResponse/],
    ['a bad toolUseBehavior string', { toolUseBehavior: 'stop_always' }, /`toolUseBehavior` must be/],
    ['a toolUseBehavior with bad stopAtToolNames', { toolUseBehavior: { stopAtToolNames: [1] } }, /`toolUseBehavior` must be/],
    ['an outputType that is not a schema', { outputType: 'json' }, /`outputType` must be 'text', a zod/],
    ['a non-object outputType schema', { outputType: z.string() }, /outputType: the schema must describe an object/],
    ['handoffs that are not agents', { handoffs: ['Billing'] }, /`handoffs\[0\]` must be an Agent or a handoff/],
    ['an input guardrail whose execute is not a function', { inputGuardrails: [{ name: 'g', execute: 'yes' }] }, /inputGuardrails`\[0\] \("g"\) `execute` must be a function/],
    ['an output guardrail without a name', { outputGuardrails: [{ execute: () => ({ tripwireTriggered: false }) }] }, /outputGuardrails`\[0\] must have a string `name`/],
    ['a handoffDescription that is not a string', { handoffDescription: 7 }, /`handoffDescription` must be a string/],
  ];

  it.each(cases)('%s', (_label, options, message) => {
    const make = () => new Agent({ name: 'Helper', ...options } as unknown as AgentOptions);
    expect(make).toThrow(UserError);
    expect(make).toThrow(message);
    expect(make).toThrow(/Agent "Helper"/);
  });

  it.each([
    ['no options', undefined],
    ['an empty name', { name: '  ' }],
    ['a non-string name', { name: 3 }],
  ])('rejects %s', (_label, options) => {
    expect(() => new Agent(options as never)).toThrow(UserError);
  });
});

describe('invalid tool configuration fails with a UserError naming the field', () => {
  const base = { name: 't', description: 'd', parameters: z.object({}), execute: () => 'ok' };
  it.each([
    ['execute', { execute: 'not a function' }, /tool\(\): `execute` must be a function, got string/],
    ['errorFunction', { errorFunction: 'oops' }, /tool "t": `errorFunction` must be a function/],
    ['needsApproval', { needsApproval: 'sometimes' }, /tool "t": `needsApproval` must be a boolean or a function/],
    ['isEnabled', { isEnabled: 1 }, /tool "t": `isEnabled` must be a boolean or a function/],
    ['description', { description: undefined }, /tool "t": `description` must be a string/],
    ['strict', { strict: 'yes' }, /tool "t": `strict` must be a boolean/],
    ['inputGuardrails', { inputGuardrails: {} }, /tool "t": `inputGuardrails` must be an array/],
    ['name (with an anonymous execute)', { name: undefined, execute: [() => 1][0] }, /`name` is required/],
  ])('%s', (_field, override, message) => {
    const make = () => tool({ ...base, ...override } as never);
    expect(make).toThrow(UserError);
    expect(make).toThrow(message);
  });
});

describe('invalid run input', () => {
  const agent = new Agent({ name: 'A', model: new ScriptedModel([]) });
  it.each([
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an object', { role: 'user', content: 'hi' }],
    ['an array with a non-item', ['hi']],
    ['an array with an object that is not an item', [{ text: 'hi' }]],
  ])('%s fails with a UserError', async (_label, input) => {
    await expect(run(agent, input as never)).rejects.toBeInstanceOf(UserError);
    await expect(run(agent, input as never, { stream: true })).rejects.toBeInstanceOf(UserError);
  });

  it('a first argument that is not an agent fails with a UserError', async () => {
    await expect(run({} as never, 'hi')).rejects.toThrow(/first argument must be an Agent/);
  });

  it('a bad streamBufferSize fails with a UserError', async () => {
    await expect(run(agent, 'hi', { stream: true, streamBufferSize: 0 })).rejects.toBeInstanceOf(UserError);
  });
});

describe('bad tool calls from the model', () => {
  // The answers are the reference's (@openai/agents 0.20.0): JSON it cannot parse is the runner's
  // answer; arguments failing the schema are the tool's error, answered by its error function.
  const UNPARSABLE = 'An error occurred while parsing tool arguments. Please try again with valid JSON.';
  const TOOL_FAILED = 'An error occurred while running the tool. Please try again.';
  const cases: Array<{ name: string; args: string; message: string }> = [
    { name: 'malformed JSON arguments', args: '{"word": "sun', message: UNPARSABLE },
    { name: 'empty arguments', args: '', message: UNPARSABLE },
    { name: 'blank arguments', args: ' \n', message: UNPARSABLE },
    { name: 'arguments failing the schema', args: '{"word": 5}', message: TOOL_FAILED },
    { name: 'arguments missing a field', args: '{}', message: TOOL_FAILED },
  ];

  it.each(cases)('$name go back to the model as a tool error it can recover from', async ({ args, message }) => {
    const model = new ScriptedModel([
      [functionCall('lookup', args, { callId: 'bad' })],
      [functionCall('lookup', { word: 'sun' }, { callId: 'good' })],
      [assistantMessage('The sun is a star.')],
    ]);
    const result = await run(new Agent({ name: 'A', model, tools: [lookup] }), 'define sun');
    expect(result.finalOutput).toBe('The sun is a star.');
    expect(resultText(model.calls[1], 'bad')).toBe(message);
    expect(resultText(model.calls[2], 'good')).toBe('definition of sun');
  });

  it.each(cases)('$name fail the run with ModelBehaviorError under invalidToolInputBehavior: raise_error', async ({ args }) => {
    const model = new ScriptedModel([[functionCall('lookup', args)], [assistantMessage('never')]]);
    const error = await run(new Agent({ name: 'A', model, tools: [lookup] }), 'go', { invalidToolInputBehavior: 'raise_error' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as ModelBehaviorError).state?.currentTurn).toBe(1);
    expect(model.calls).toHaveLength(1);
  });

  it('names the tool and the parse error in the ModelBehaviorError of arguments that are not JSON (raise_error)', async () => {
    const model = new ScriptedModel([[functionCall('lookup', '{"word": "sun')], [assistantMessage('never')]]);
    const error = await run(new Agent({ name: 'A', model, tools: [lookup] }), 'go', { invalidToolInputBehavior: 'raise_error' }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^Invalid JSON input for tool "lookup": /);
  });

  describe('a tool with errorFunction: null', () => {
    const strict = tool({ name: 'strict', description: '', parameters: z.object({ n: z.number() }), errorFunction: null, execute: ({ n }) => String(n) });
    const broken = tool({
      name: 'broken',
      description: '',
      parameters: z.object({}),
      errorFunction: null,
      execute: () => {
        throw new RangeError('out of range');
      },
    });

    it('fails the run with ToolCallError when the arguments fail its schema (as the reference)', async () => {
      const model = new ScriptedModel([[functionCall('strict', { n: 'x' })], [assistantMessage('never')]]);
      const error = await run(new Agent({ name: 'A', model, tools: [strict] }), 'go').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolCallError);
      expect((error as ToolCallError).error).toBeInstanceOf(InvalidToolInputError);
      expect(model.calls).toHaveLength(1);
    });

    it('fails the run with ModelBehaviorError for them under raise_error, naming the field when tool data may be logged', async () => {
      const failure = async () => {
        const model = new ScriptedModel([[functionCall('strict', { n: 'SECRET-42' })], [assistantMessage('never')]]);
        return run(new Agent({ name: 'A', model, tools: [strict] }), 'go', { invalidToolInputBehavior: 'raise_error' }).catch((e: unknown) => e);
      };
      setSensitiveDataLoggingEnabled(true);
      try {
        const error = await failure();
        expect(error).toBeInstanceOf(ModelBehaviorError);
        expect((error as Error).message).toMatch(/^Invalid input for tool "strict": n: /);
      } finally {
        setSensitiveDataLoggingEnabled(false);
      }
      // By default only the tool is named: the schema's complaint may quote the arguments.
      const redacted = await failure();
      expect(redacted).toBeInstanceOf(ModelBehaviorError);
      expect((redacted as Error).message).toBe('Invalid JSON input for tool "strict"');
    });

    it('still fails the run with ToolCallError, not ModelBehaviorError, for its own error under raise_error', async () => {
      const model = new ScriptedModel([[functionCall('broken', {})], [assistantMessage('never')]]);
      const error = await run(new Agent({ name: 'A', model, tools: [broken] }), 'go', { invalidToolInputBehavior: 'raise_error' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolCallError);
      expect((error as ToolCallError).error).toBeInstanceOf(RangeError);
    });
  });

  it('an unknown tool name goes back to the model, listing the tools it has', async () => {
    const model = new ScriptedModel([[functionCall('lokup', { word: 'sun' }, { callId: 'typo' })], [assistantMessage('retrying')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [lookup] }), 'go');
    expect(result.finalOutput).toBe('retrying');
    expect(resultText(model.calls[1], 'typo')).toBe("Tool 'lokup' not found.");
  });

  it.each<[string, Runner, ToolCallErrorBehavior | undefined]>([
    ['run option', new Runner(), 'raise_error'],
    ['runner config', new Runner({ toolNotFoundBehavior: 'raise_error' }), undefined],
  ])('an unknown tool name fails with ModelBehaviorError under toolNotFoundBehavior: raise_error (%s)', async (_label, runner, behavior) => {
    const model = new ScriptedModel([[functionCall('lokup', {})], [assistantMessage('never')]]);
    const agent = new Agent({ name: 'A', model, tools: [lookup] });
    const error = await runner.run(agent, 'go', behavior ? { toolNotFoundBehavior: behavior } : {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toBe('Tool lokup not found in agent A.');
    expect(model.calls).toHaveLength(1);
  });

  it('a bad call does not stop a good sibling call', async () => {
    const model = new ScriptedModel([
      [functionCall('lookup', '{oops', { callId: 'bad' }), functionCall('lookup', { word: 'moon' }, { callId: 'good' })],
      [assistantMessage('ok')],
    ]);
    await run(new Agent({ name: 'A', model, tools: [lookup] }), 'go');
    expect(resultText(model.calls[1], 'good')).toBe('definition of moon');
    expect(resultText(model.calls[1], 'bad')).toBe(UNPARSABLE);
  });
});

describe('model errors', () => {
  class ProviderError extends Error {
    override name = 'ProviderError';
    status = 429;
  }

  it('reject a non-streamed run with the model’s own error, unchanged', async () => {
    const watch = watchUnhandledRejections();
    const original = new ProviderError('rate limited');
    const model = new ScriptedModel([modelError(original)]);
    const error = await run(new Agent({ name: 'A', model }), 'go').catch((e: unknown) => e);
    expect(error).toBe(original);
    expect((error as ProviderError).status).toBe(429);
    expect(await watch.stop()).toEqual([]);
  });

  it('reject a run when a later turn fails, and keep non-Error values unchanged', async () => {
    const model = new ScriptedModel([[functionCall('lookup', { word: 'x' })], modelError('plain string failure')]);
    await expect(run(new Agent({ name: 'A', model, tools: [lookup] }), 'go')).rejects.toBe('plain string failure');
  });

  it('a model response without an output array fails with ModelBehaviorError', async () => {
    const model = { getResponse: async () => ({ usage: {} }) as never, getStreamedResponse: async function* () {} };
    await expect(run(new Agent({ name: 'A', model }), 'go')).rejects.toBeInstanceOf(ModelBehaviorError);
  });
});
