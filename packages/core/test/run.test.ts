import { Cause, Effect, Exit } from 'effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelError, modelResponder } from '@baton/testing';
import {
  Agent,
  DEFAULT_MAX_TURNS,
  MaxTurnsExceededError,
  ModelBehaviorError,
  RunContext,
  RunResult,
  Runner,
  RunState,
  Usage,
  UserError,
  run,
  setSensitiveDataLoggingEnabled,
  tool,
  type ToolUseBehavior,
} from '../src/index.js';
import { aborted, deferred, inputOf, resultText, toolResultsOf, within } from './helpers.js';

const weather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: city === 'Oslo' ? 4 : 21 }),
});

describe('tool loop', () => {
  it('calls the model, runs the tool, gives the model its output, and returns the answer', async () => {
    const model = new ScriptedModel([
      [functionCall('get_weather', { city: 'Oslo' }, { callId: 'call_1' })],
      [assistantMessage('It is 4°C in Oslo.')],
    ]);
    const agent = new Agent({ name: 'Weather', model, tools: [weather] });
    const result = await run(agent, 'Weather in Oslo?');

    expect(result).toBeInstanceOf(RunResult);
    expect(result.finalOutput).toBe('It is 4°C in Oslo.');
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]!.request.tools.map((t) => t.name)).toEqual(['get_weather']);
    expect(resultText(model.calls[1], 'call_1')).toBe('{"city":"Oslo","tempC":4}');
    // The second call sees the whole conversation, in order.
    expect(inputOf(model.calls[1]).map((i) => i.type ?? 'message')).toEqual(['message', 'function_call', 'function_call_result']);

    expect(result.newItems.map((i) => i.type)).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
    const output = result.newItems[1]!;
    expect(output.type === 'tool_call_output_item' && output.output).toEqual({ city: 'Oslo', tempC: 4 });
    expect(result.history).toEqual([...inputOf(model.calls[1]), assistantMessage('It is 4°C in Oslo.')]);
    expect(result.output).toEqual(result.history.slice(1));
    expect(result.input).toBe('Weather in Oslo?');
    expect(result.lastAgent).toBe(agent);
    expect(result.rawResponses).toHaveLength(2);
    expect(result.lastResponseId).toBe('scripted-response-2');
    expect(result.usage.requests).toBe(2);
    expect(result.interruptions).toEqual([]);
    expect(result.state.currentTurn).toBe(2);
  });

  it('accepts protocol items as input and continues a conversation from history', async () => {
    const model = new ScriptedModel([[assistantMessage('first')], [assistantMessage('second')]]);
    const agent = new Agent({ name: 'A', model });
    const first = await run(agent, [{ role: 'user', content: 'one' }]);
    const second = await run(agent, [...first.history, { role: 'user', content: 'two' }]);
    expect(second.finalOutput).toBe('second');
    expect(inputOf(model.calls[1])).toEqual([
      { role: 'user', content: 'one' },
      assistantMessage('first'),
      { role: 'user', content: 'two' },
    ]);
  });

  it('runs several tool calls of one response concurrently and returns every output', async () => {
    const started: string[] = [];
    const bothStarted = deferred();
    const slow = tool({
      name: 'slow',
      description: '',
      parameters: z.object({ id: z.string() }),
      execute: async ({ id }) => {
        started.push(id);
        if (started.length === 2) bothStarted.resolve();
        // Each call waits for the other to start: run one after the other, this would time out.
        await within(bothStarted.promise, 500, `call ${id} ran alone: tool calls are not concurrent`);
        return `done ${id}`;
      },
    });
    const model = new ScriptedModel([
      [functionCall('slow', { id: 'a' }, { callId: 'ca' }), functionCall('slow', { id: 'b' }, { callId: 'cb' })],
      [assistantMessage('both done')],
    ]);
    const result = await run(new Agent({ name: 'A', model, tools: [slow] }), 'go');
    expect(result.finalOutput).toBe('both done');
    expect(started.sort()).toEqual(['a', 'b']);
    expect(toolResultsOf(model.calls[1]).map((r) => r.callId).sort()).toEqual(['ca', 'cb']);
    expect(resultText(model.calls[1], 'ca')).toBe('done a');
    expect(resultText(model.calls[1], 'cb')).toBe('done b');
  });

  it('passes the user context to tools, and accepts a RunContext', async () => {
    const seen: unknown[] = [];
    const whoami = tool({ name: 'whoami', description: '', parameters: z.object({}), execute: (_i, ctx) => seen.push(ctx.context) });
    const script = () => new ScriptedModel([[functionCall('whoami', {})], [assistantMessage('ok')]]);
    await run(new Agent({ name: 'A', model: script(), tools: [whoami] }), 'go', { context: { user: 'ada' } });
    const context = new RunContext({ user: 'bob' });
    const result = await run(new Agent({ name: 'A', model: script(), tools: [whoami] }), 'go', { context });
    expect(seen).toEqual([{ user: 'ada' }, { user: 'bob' }]);
    expect(result.runContext).toBe(context);
  });

  it('sums usage over turns', async () => {
    const model = new ScriptedModel([
      { output: [functionCall('get_weather', { city: 'Oslo' })], usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 2 }) },
      { output: [assistantMessage('cold')], usage: new Usage({ requests: 1, inputTokens: 20, outputTokens: 3 }) },
    ]);
    const result = await run(new Agent({ name: 'A', model, tools: [weather] }), 'go');
    expect(result.usage).toMatchObject({ requests: 2, inputTokens: 30, outputTokens: 5, totalTokens: 35 });
  });

  it('asks the model again after a response with no message and no tool call', async () => {
    const model = new ScriptedModel([[], [assistantMessage('now I answer')]]);
    const result = await run(new Agent({ name: 'A', model }), 'go');
    expect(result.finalOutput).toBe('now I answer');
    expect(model.calls).toHaveLength(2);
  });
});

describe('structured output', () => {
  const Forecast = z.object({ city: z.string(), tempC: z.number() });

  it('parses the final text into finalOutput and sends the schema to the model', async () => {
    const model = new ScriptedModel([[assistantMessage('{"city":"Oslo","tempC":4}')]]);
    const agent = new Agent({ name: 'F', model, outputType: Forecast });
    const result = await run(agent, 'Oslo?');
    expect(result.finalOutput).toEqual({ city: 'Oslo', tempC: 4 });
    // typed: finalOutput is { city: string; tempC: number } | undefined
    const city: string | undefined = result.finalOutput?.city;
    expect(city).toBe('Oslo');
    // Every field required and no record: the schema has a Structured Outputs form, sent strict.
    expect(model.calls[0]!.request.outputType).toMatchObject({ type: 'json_schema', name: 'output', strict: true });
  });

  it.each([
    ['an optional field', z.object({ city: z.string(), note: z.string().optional() })],
    ['a record', z.object({ scores: z.record(z.string(), z.number()) })],
  ])('sends a schema with %s not strict, in the plain form', async (_label, schema) => {
    const model = new ScriptedModel([[assistantMessage('{"city":"Oslo","scores":{}}')]]);
    await run(new Agent({ name: 'F', model, outputType: schema }), 'go').catch(() => undefined);
    const format = model.calls[0]!.request.outputType as { strict: boolean; schema: { required: unknown } };
    expect(format.strict).toBe(false);
    expect(Array.isArray(format.schema.required)).toBe(true);
  });

  it('applies the schema’s transforms', async () => {
    const model = new ScriptedModel([[assistantMessage('{"n":"7"}')]]);
    const agent = new Agent({ name: 'F', model, outputType: z.object({ n: z.string().transform(Number) }) });
    expect((await run(agent, 'go')).finalOutput).toEqual({ n: 7 });
  });

  it.each([
    ['not JSON', 'It is cold.', /not valid JSON/],
    ['JSON of the wrong shape', '{"city":"Oslo","tempC":"cold"}', /does not match the output type: tempC/],
  ])('fails with ModelBehaviorError naming the problem when the final text is %s (model data may be logged)', async (_label, text, message) => {
    const model = new ScriptedModel([[assistantMessage(text)]]);
    setSensitiveDataLoggingEnabled(true);
    const error = await run(new Agent({ name: 'F', model, outputType: Forecast }), 'Oslo?')
      .catch((e: unknown) => e)
      .finally(() => setSensitiveDataLoggingEnabled(false));
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toMatch(message);
    expect((error as ModelBehaviorError).state).toBeInstanceOf(RunState);
  });

  it('still runs tools before the structured answer', async () => {
    const model = new ScriptedModel([[functionCall('get_weather', { city: 'Rome' })], [assistantMessage('{"city":"Rome","tempC":21}')]]);
    const result = await run(new Agent({ name: 'F', model, outputType: Forecast, tools: [weather] }), 'Rome?');
    expect(result.finalOutput).toEqual({ city: 'Rome', tempC: 21 });
  });
});

describe('maxTurns', () => {
  const loopingModel = () =>
    new ScriptedModel(Array.from({ length: 12 }, (_, i) => [functionCall('get_weather', { city: 'Oslo' }, { callId: `c${i}` })]));

  it('fails with MaxTurnsExceededError carrying the state, without calling the model past the limit', async () => {
    const model = loopingModel();
    const error = await run(new Agent({ name: 'Loop', model, tools: [weather] }), 'go', { maxTurns: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    expect((error as Error).message).toBe('Max turns (3) exceeded');
    const state = (error as MaxTurnsExceededError).state!;
    expect(state).toBeInstanceOf(RunState);
    expect(state.currentTurn).toBe(3);
    expect(state.maxTurns).toBe(3);
    expect(state.generatedItems.filter((i) => i.type === 'tool_call_output_item')).toHaveLength(3);
    expect(model.calls).toHaveLength(3);
  });

  it('defaults to 10, takes the runner’s setting, and allows null for no limit', async () => {
    expect(DEFAULT_MAX_TURNS).toBe(10);
    const defaulted = loopingModel();
    await expect(run(new Agent({ name: 'Loop', model: defaulted, tools: [weather] }), 'go')).rejects.toBeInstanceOf(MaxTurnsExceededError);
    expect(defaulted.calls).toHaveLength(10);

    const runnerLimited = loopingModel();
    await expect(new Runner({ maxTurns: 2 }).run(new Agent({ name: 'Loop', model: runnerLimited, tools: [weather] }), 'go')).rejects.toThrow(
      'Max turns (2) exceeded',
    );
    expect(runnerLimited.calls).toHaveLength(2);

    const unlimited = new ScriptedModel([
      ...Array.from({ length: 11 }, () => [functionCall('get_weather', { city: 'Oslo' })]),
      [assistantMessage('finally')],
    ]);
    const result = await run(new Agent({ name: 'Loop', model: unlimited, tools: [weather] }), 'go', { maxTurns: null });
    expect(result.finalOutput).toBe('finally');
    expect(result.state.maxTurns).toBeNull();
    expect(result.state.currentTurn).toBe(12);
  });

  it.each([-1, 1.5, Number.NaN])('rejects maxTurns %s with a UserError', async (maxTurns) => {
    const model = new ScriptedModel([]);
    await expect(run(new Agent({ name: 'A', model }), 'go', { maxTurns })).rejects.toBeInstanceOf(UserError);
  });
});

describe('toolUseBehavior', () => {
  const a = tool({ name: 'tool_a', description: '', parameters: z.object({}), execute: () => 'output a' });
  const b = tool({ name: 'tool_b', description: '', parameters: z.object({}), execute: () => ({ value: 'b' }) });

  const cases: Array<{ name: string; behavior: ToolUseBehavior; script: () => ScriptedModel; finalOutput: string; calls: number }> = [
    {
      name: "'run_llm_again' (default) asks the model again",
      behavior: 'run_llm_again',
      script: () => new ScriptedModel([[functionCall('tool_a', {})], [assistantMessage('model answer')]]),
      finalOutput: 'model answer',
      calls: 2,
    },
    {
      name: "'stop_on_first_tool' makes the first tool output the final output",
      behavior: 'stop_on_first_tool',
      script: () => new ScriptedModel([[functionCall('tool_b', {}), functionCall('tool_a', {})]]),
      finalOutput: '{"value":"b"}',
      calls: 1,
    },
    {
      name: '{ stopAtToolNames } stops only at a listed tool',
      behavior: { stopAtToolNames: ['tool_b'] },
      script: () => new ScriptedModel([[functionCall('tool_a', {})], [functionCall('tool_b', {})]]),
      finalOutput: '{"value":"b"}',
      calls: 2,
    },
    {
      name: 'a function decides from the tool results',
      behavior: (_ctx, results) =>
        results.some((r) => r.tool.name === 'tool_b')
          ? { isFinalOutput: true, finalOutput: `stopped after ${results.map((r) => r.tool.name).join('+')}` }
          : { isFinalOutput: false },
      script: () => new ScriptedModel([[functionCall('tool_a', {})], [functionCall('tool_a', {}), functionCall('tool_b', {})]]),
      finalOutput: 'stopped after tool_a+tool_b',
      calls: 2,
    },
  ];

  it.each(cases)('$name', async ({ behavior, script, finalOutput, calls }) => {
    const model = script();
    const result = await run(new Agent({ name: 'A', model, tools: [a, b], toolUseBehavior: behavior }), 'go');
    expect(result.finalOutput).toBe(finalOutput);
    expect(model.calls).toHaveLength(calls);
    model.assertComplete();
  });

  it('fails with a UserError when the function returns something else', async () => {
    const model = new ScriptedModel([[functionCall('tool_a', {})]]);
    const agent = new Agent({ name: 'A', model, tools: [a], toolUseBehavior: () => 'yes' as never });
    await expect(run(agent, 'go')).rejects.toThrow(/toolUseBehavior must return/);
  });
});

describe('cancellation with a user AbortSignal (non-streamed)', () => {
  it('aborts the model request and rejects with the signal’s reason', async () => {
    const controller = new AbortController();
    const modelSawAbort = deferred<boolean>();
    const model = new ScriptedModel([
      modelResponder(async (call) => {
        controller.abort(new Error('user gave up'));
        await aborted(call.request.signal);
        modelSawAbort.resolve(true);
        return [assistantMessage('too late')];
      }),
      [assistantMessage('never')],
    ]);
    await expect(run(new Agent({ name: 'A', model }), 'go', { signal: controller.signal })).rejects.toThrow('user gave up');
    await expect(within(modelSawAbort.promise, 1000, 'the model never saw the abort')).resolves.toBe(true);
    expect(model.calls).toHaveLength(1);
  });

  it('aborts a running tool and starts no further turn', async () => {
    const controller = new AbortController();
    const toolSawAbort = deferred<boolean>();
    const waits = tool({
      name: 'waits',
      description: '',
      parameters: z.object({}),
      execute: async (_i, _c, details) => {
        controller.abort();
        await aborted(details.signal);
        toolSawAbort.resolve(true);
        return 'aborted';
      },
    });
    const model = new ScriptedModel([[functionCall('waits', {})], [assistantMessage('never')]]);
    const error = await run(new Agent({ name: 'A', model, tools: [waits] }), 'go', { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    await expect(within(toolSawAbort.promise, 1000, 'the tool never saw the abort')).resolves.toBe(true);
    expect(model.calls).toHaveLength(1);
  });

  it('a tool that first reads its signal after the run was cancelled finds it aborted (the signal is made on first read)', async () => {
    const controller = new AbortController();
    const seen = deferred<boolean>();
    const late = tool({
      name: 'late',
      description: '',
      parameters: z.object({}),
      execute: async (_i, _c, details) => {
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen.resolve(details!.signal.aborted);
        return 'done';
      },
    });
    const model = new ScriptedModel([[functionCall('late', {})], [assistantMessage('never')]]);
    const error = await run(new Agent({ name: 'A', model, tools: [late] }), 'go', { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    await expect(within(seen.promise, 1000, 'the tool never looked')).resolves.toBe(true);
  });

  it('a model that first reads request.signal after the run was cancelled finds it aborted, with the reason', async () => {
    const controller = new AbortController();
    const seen = deferred<unknown>();
    const model = new ScriptedModel([
      modelResponder(async (call) => {
        controller.abort(new Error('user gave up'));
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen.resolve(call.request.signal?.aborted);
        return [assistantMessage('too late')];
      }),
    ]);
    await expect(run(new Agent({ name: 'A', model }), 'go', { signal: controller.signal })).rejects.toThrow('user gave up');
    await expect(within(seen.promise, 1000, 'the model never looked')).resolves.toBe(true);
  });

  it('rejects at once when the signal has already fired', async () => {
    const model = new ScriptedModel([[assistantMessage('never')]]);
    await expect(run(new Agent({ name: 'A', model }), 'go', { signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow('already');
    expect(model.calls).toHaveLength(0);
  });
});

describe('Runner.runEffect', () => {
  it('succeeds with the result', async () => {
    const model = new ScriptedModel([[functionCall('get_weather', { city: 'Oslo' })], [assistantMessage('cold')]]);
    const result = await Effect.runPromise(new Runner().runEffect(new Agent({ name: 'A', model, tools: [weather] }), 'go'));
    expect(result.finalOutput).toBe('cold');
  });

  it('fails with the typed error, which carries the state', async () => {
    const model = new ScriptedModel([[functionCall('get_weather', { city: 'Oslo' })]]);
    const exit = await Effect.runPromiseExit(new Runner().runEffect(new Agent({ name: 'A', model, tools: [weather] }), 'go', { maxTurns: 1 }));
    expect(Exit.isFailure(exit)).toBe(true);
    const error = Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : undefined;
    expect(error?._tag === 'Some' && error.value).toBeInstanceOf(MaxTurnsExceededError);
    expect(error?._tag === 'Some' && (error.value as MaxTurnsExceededError).state?.currentTurn).toBe(1);
  });
});

describe('a final answer said in parts', () => {
  it('joins the messages of a response around its reasoning, as one final output', async () => {
    const reasoning = { type: 'reasoning' as const, id: 'rs_1', content: [] };
    const model = new ScriptedModel([[assistantMessage('first'), reasoning, assistantMessage('second')]]);
    const result = await run(new Agent({ name: 'Parts', model }), 'go');
    expect(result.finalOutput).toBe('firstsecond');
  });
});

describe('a failed model attempt the API billed', () => {
  it('counts in the run’s usage, a retried attempt included', async () => {
    const billed = Object.assign(new Error('truncated'), { usage: new Usage({ requests: 1, inputTokens: 11, outputTokens: 7, totalTokens: 18 }) });
    const model = new ScriptedModel([modelError(billed), [assistantMessage('ok')]]);
    const agent = new Agent({ name: 'Retry', model, modelSettings: { retry: { maxRetries: 1, policy: () => ({ retry: true, approveUnsafeReplay: true, delayMs: 0 }) } } });
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('ok');
    expect(result.state.usage.inputTokens).toBe(11);
    expect(result.state.usage.requests).toBe(2);
  });
});
