import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  RunToolCallOutputItem,
  ToolCallError,
  UserError,
  type ApplyPatchCallItem,
  type ComputerUseCallItem,
  type Editor,
  type FunctionToolCustomDataContext,
  type MCPServer,
  type MCPToolCustomDataContext,
  type RunItem,
} from '@baton/types';
import { FakeComputer, ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunState, applyPatchTool, computerTool, run, tool } from '../src/index.js';
import { normalizedCustomData } from '../src/engine/internal/loop/toolOutputCustomData.js';
import { toolStepCodec } from '../src/engine/internal/loop/stepCodecs.js';

// tool({ customDataExtractor }) and RunToolCallOutputItem.customData: data of the developer's own on
// a tool's output item, kept in the run's items and its state, never sent to the model.

const outputsOf = (items: readonly RunItem[]) => items.filter((item): item is RunToolCallOutputItem => item instanceof RunToolCallOutputItem);

function lookupAgent(extractor: (context: FunctionToolCustomDataContext) => unknown, options: { execute?: (input: { q: string }) => unknown; extra?: object } = {}) {
  const seen: FunctionToolCustomDataContext[] = [];
  const lookup = tool({
    name: 'lookup',
    description: 'looks a word up',
    parameters: z.object({ q: z.string().transform((q) => q.toUpperCase()) }),
    execute: options.execute ?? (({ q }) => ({ found: q })),
    customDataExtractor: (context) => (seen.push(context), extractor(context) as never),
    ...options.extra,
  });
  const model = new ScriptedModel([[functionCall('lookup', { q: 'oak' }, { callId: 'c1' })], [assistantMessage('done')]]);
  return { agent: new Agent({ name: 'A', model, tools: [lookup] }), model, seen, lookup };
}

describe('tool({ customDataExtractor })', () => {
  it('is given the parsed input, the output, copies of the call and raw item, the tool and the run context; its data is on the output item only', async () => {
    const { agent, model, seen, lookup } = lookupAgent(({ input, output }) => ({ word: (input as { q: string }).q, found: (output as { found: string }).found, n: 1 }));
    const result = await run(agent, 'go', { context: { user: 'u1' } });

    expect(seen).toHaveLength(1);
    const context = seen[0]!;
    expect(context.input).toEqual({ q: 'OAK' });
    expect(context.output).toEqual({ found: 'OAK' });
    expect(context.toolCall).toMatchObject({ type: 'function_call', callId: 'c1', name: 'lookup', arguments: '{"q":"oak"}' });
    expect(context.rawItem).toMatchObject({ type: 'function_call_result', callId: 'c1', name: 'lookup', output: { type: 'text', text: '{"found":"OAK"}' } });
    expect(context.tool).toBe(lookup);
    expect(context.runContext.context).toEqual({ user: 'u1' });

    const [item] = outputsOf(result.newItems);
    expect(item!.customData).toEqual({ word: 'OAK', found: 'OAK', n: 1 });
    expect(item!.toJSON()).toMatchObject({ customData: { word: 'OAK', found: 'OAK', n: 1 } });
    // Never sent to the model.
    expect(JSON.stringify(model.lastCall!.request.input)).not.toContain('word');
  });

  it('keeps a JSON copy: the object returned, or the context handed over, changed afterwards changes nothing', async () => {
    const returned = { tags: ['a'] };
    const { agent } = lookupAgent((context) => {
      (context.toolCall as { arguments: string }).arguments = 'changed';
      (context.rawItem as { callId: string }).callId = 'changed';
      return returned;
    });
    const result = await run(agent, 'go');
    returned.tags.push('b');
    const [item] = outputsOf(result.newItems);
    expect(item!.customData).toEqual({ tags: ['a'] });
    expect(item!.rawItem).toMatchObject({ callId: 'c1' });
    const call = result.newItems.find((i) => i.type === 'tool_call_item')!;
    expect(call.rawItem).toMatchObject({ arguments: '{"q":"oak"}' });
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an empty object', {}],
  ])('attaches nothing for %s', async (_name, value) => {
    const { agent } = lookupAgent(() => value);
    const result = await run(agent, 'go');
    const [item] = outputsOf(result.newItems);
    expect(item!.customData).toBeUndefined();
    expect('customData' in item!).toBe(false);
    expect('customData' in item!.toJSON()).toBe(false);
    // Nor in the state written for it.
    const written = (result.state.toJSON() as { generatedItems: Array<Record<string, unknown>> }).generatedItems.find((i) => i.type === 'tool_call_output_item')!;
    expect('customData' in written).toBe(false);
  });

  it('may be async', async () => {
    const { agent } = lookupAgent(async () => ({ late: true }));
    const [item] = outputsOf((await run(agent, 'go')).newItems);
    expect(item!.customData).toEqual({ late: true });
  });

  it('sees the error function answer, with the input the tool was given, when the tool throws', async () => {
    const { agent, seen } = lookupAgent(({ output }) => ({ output }), {
      execute: () => {
        throw new Error('down');
      },
    });
    const [item] = outputsOf((await run(agent, 'go')).newItems);
    expect(seen[0]!.input).toEqual({ q: 'OAK' });
    expect(item!.customData).toEqual({ output: 'An error occurred while running the tool. Please try again.' });
  });

  it('sees what an output guardrail put in place of the output', async () => {
    const { agent } = lookupAgent(({ output }) => ({ output }), {
      extra: { outputGuardrails: [{ name: 'hide', run: async () => ({ behavior: { type: 'rejectContent', message: 'withheld' }, outputInfo: null }) }] },
    });
    const [item] = outputsOf((await run(agent, 'go')).newItems);
    expect(item!.customData).toEqual({ output: 'withheld' });
    expect(item!.output).toBe('withheld');
  });

  it('sees the arguments as execute would have received them when an input guardrail rejected the call, and the tool ends with the rejection', async () => {
    let ran = false;
    const ends: string[] = [];
    const { agent, seen } = lookupAgent(({ input, output }) => ({ input: input as object, output }), {
      execute: () => ((ran = true), 'x'),
      extra: { inputGuardrails: [{ name: 'stop', run: async () => ({ behavior: { type: 'rejectContent', message: 'not allowed' }, outputInfo: null }) }] },
    });
    agent.on('agent_tool_end', (_context, _tool, result) => ends.push(result));
    const [item] = outputsOf((await run(agent, 'go')).newItems);
    expect(ran).toBe(false);
    expect(seen[0]!.input).toEqual({ q: 'OAK' });
    expect(item!.customData).toEqual({ input: { q: 'OAK' }, output: 'not allowed' });
    expect(ends).toEqual(['not allowed']);
  });

  it('sees no input for a rejected call of a tool that cannot read its arguments (a tool object of your own)', async () => {
    const seen: unknown[] = [];
    const own = {
      ...tool({ name: 'lookup', description: '', parameters: z.object({ q: z.string() }), execute: () => 'x' }),
      customDataExtractor: ({ input }: FunctionToolCustomDataContext) => (seen.push(input), { a: 1 }),
      inputGuardrails: [{ name: 'stop', run: async () => ({ behavior: { type: 'rejectContent' as const, message: 'no' }, outputInfo: null }) }],
    };
    delete (own as Record<PropertyKey, unknown>)[Object.getOwnPropertySymbols(own).find((s) => s.description === 'baton.prepareToolInput')!];
    const model = new ScriptedModel([[functionCall('lookup', { q: 'oak' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const [item] = outputsOf((await run(new Agent({ name: 'A', model, tools: [own] }), 'go')).newItems);
    expect(seen).toEqual([undefined]);
    expect(item!.customData).toEqual({ a: 1 });
  });

  it('is not asked for a call a human rejected', async () => {
    const { agent, seen } = lookupAgent(() => ({ x: 1 }), { extra: { needsApproval: true } });
    const paused = await run(agent, 'go');
    paused.state.reject(paused.interruptions[0]!);
    const resumed = await run(agent, paused.state);
    expect(seen).toEqual([]);
    expect(outputsOf(resumed.newItems)[0]!.customData).toBeUndefined();
  });

  it('comes before agent_tool_end; one that throws fails the run as the tool failing would (the tool ends with the error)', async () => {
    const ends: string[] = [];
    const failure = new Error('extractor broke');
    const { agent } = lookupAgent(() => {
      ends.push('extract');
      throw failure;
    });
    agent.on('agent_tool_end', (_context, _tool, result) => ends.push(`end: ${result}`));
    // As a tool's own failure: a ToolCallError holding what was thrown.
    const error = await run(agent, 'go').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).error).toBe(failure);
    expect((error as Error).message).toBe('Failed to run function tools: Error: extractor broke');
    expect(ends).toEqual(['extract', 'end: Error: extractor broke']);

    const ok = lookupAgent(() => (ends.push('extract ok'), { a: 1 }));
    ok.agent.on('agent_tool_end', () => ends.push('end ok'));
    await run(ok.agent, 'go');
    expect(ends.slice(2)).toEqual(['extract ok', 'end ok']);
  });

  it('is carried on the streamed tool output event', async () => {
    const { agent } = lookupAgent(() => ({ streamed: true }));
    const result = await run(agent, 'go', { stream: true });
    const outputs: unknown[] = [];
    for await (const event of result) {
      if (event.type === 'run_item_stream_event' && event.name === 'tool_output') outputs.push((event.item as RunToolCallOutputItem).customData);
    }
    await result.completed;
    expect(outputs).toEqual([{ streamed: true }]);
  });

  it('must be a function', () => {
    expect(() => tool({ name: 't', description: '', parameters: z.object({}), execute: () => 'x', customDataExtractor: 'no' as never })).toThrow(
      new UserError('tool "t": `customDataExtractor` must be a function, got string.'),
    );
  });
});

describe('what an extractor may return (the reference rules)', () => {
  class Point {
    x = 1;
  }
  it.each([
    ['a string', 'text', 'customDataExtractor must return an object or null.'],
    ['an array', [1], 'customDataExtractor must return an object or null.'],
    ['a class instance', new Point(), 'customDataExtractor must return an object or null.'],
    ['a Date', new Date(0), 'customDataExtractor must return an object or null.'],
    ['a symbol key', { [Symbol('s')]: 1 }, 'customDataExtractor must return an object with string keys.'],
    ['a function value', { a: () => 1 }, 'customDataExtractor must return JSON-compatible data.'],
    ['NaN', { a: Number.NaN }, 'customDataExtractor must return JSON-compatible data.'],
    ['Infinity in a list', { a: [1, Number.POSITIVE_INFINITY] }, 'customDataExtractor must return JSON-compatible data.'],
    ['a bigint', { a: 1n }, 'customDataExtractor must return JSON-compatible data.'],
    ['a nested Date', { when: new Date(0) }, 'customDataExtractor must return JSON-compatible data.'],
    ['a nested Map', { m: new Map() }, 'customDataExtractor must return JSON-compatible data.'],
  ])('refuses %s', async (_name, value, message) => {
    expect(() => normalizedCustomData(value)).toThrow(new UserError(message));
    const { agent } = lookupAgent(() => value);
    await expect(run(agent, 'go')).rejects.toThrow(message);
  });

  it.each([
    ['nested JSON', { a: { b: [1, 'two', true, null] } }, { a: { b: [1, 'two', true, null] } }],
    ['a null-prototype object', Object.assign(Object.create(null), { a: 1 }), { a: 1 }],
    // As the reference: undefined values pass, and the JSON copy drops them (or makes them null in a list).
    ['undefined values', { a: undefined, b: [undefined, 1] }, { b: [null, 1] }],
    ['only an undefined value', { a: undefined }, {}],
  ])('keeps %s', (_name, value, expected) => {
    expect(normalizedCustomData(value)).toEqual(expected);
  });
});

describe('custom data in the serialized state', () => {
  it('is written (schema 2 on), read back, and rewritten the same', async () => {
    const { agent } = lookupAgent(() => ({ note: 'kept' }), { extra: {} });
    const pauser = tool({ name: 'pause', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'ok' });
    const model = new ScriptedModel([[functionCall('lookup', { q: 'oak' }, { callId: 'c1' })], [functionCall('pause', {}, { callId: 'c2' })], [assistantMessage('done')]]);
    const paused = await run(agent.clone({ model, tools: [...agent.tools, pauser] }), 'go');
    const text = paused.state.toString();
    const json = JSON.parse(text);
    expect(json.$schemaVersion).toBe('3');
    expect(json.generatedItems.find((item: { type: string }) => item.type === 'tool_call_output_item').customData).toEqual({ note: 'kept' });

    const restored = await RunState.fromString(agent.clone({ model, tools: [...agent.tools, pauser] }), text);
    expect(outputsOf(restored.generatedItems)[0]!.customData).toEqual({ note: 'kept' });
    expect(restored.toString()).toBe(text);
  });

  it('a version-1 state (no custom data) is still read, and is written at the current version', async () => {
    const pauser = tool({ name: 'pause', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'ok' });
    const model = new ScriptedModel([[functionCall('pause', {}, { callId: 'c2' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [pauser] });
    const paused = await run(agent, 'go');
    const v1 = JSON.stringify({ ...JSON.parse(paused.state.toString()), $schemaVersion: '1' });
    const restored = await RunState.fromString(agent, v1);
    expect(JSON.parse(restored.toString()).$schemaVersion).toBe('3');
    restored.approve(restored.getInterruptions()[0]!);
    expect((await run(agent, restored)).finalOutput).toBe('done');
  });

  it('a recorded tool step keeps the input the extractor is given (a replayed call gives it the same)', () => {
    const encoded = toolStepCodec.encode({ type: 'output', output: 'x', handledError: undefined, parsedInput: { value: { q: 'OAK' } } });
    expect(toolStepCodec.decode(JSON.parse(JSON.stringify(encoded)))).toMatchObject({ type: 'output', output: 'x', parsedInput: { value: { q: 'OAK' } } });
    expect(toolStepCodec.decode(toolStepCodec.encode({ type: 'output', output: 'x', handledError: undefined }))).toMatchObject({ parsedInput: undefined });
  });
});

describe('computer and apply-patch tools', () => {
  it('a computer tool extractor gets the call, the screenshot and the raw item', async () => {
    const call: ComputerUseCallItem = { type: 'computer_call', callId: 'k1', status: 'completed', actions: [{ type: 'click', x: 1, y: 2, button: 'left' }] };
    const seen: unknown[] = [];
    const computer = computerTool({
      computer: new FakeComputer(),
      customDataExtractor: (context) => (seen.push(context), { shot: context.output.slice(0, 22), call: context.toolCall.callId, raw: context.rawItem.type }),
    });
    const agent = new Agent({ name: 'Ops', model: new ScriptedModel([[call], [assistantMessage('done')]]), tools: [computer] });
    const [item] = outputsOf((await run(agent, 'go')).newItems);
    expect(item!.customData).toEqual({ shot: 'data:image/png;base64,', call: 'k1', raw: 'computer_call_result' });
    expect((seen[0] as { tool: unknown }).tool).toBe(computer);
  });

  it('a computer tool extractor that returns bad data fails the run', async () => {
    const call: ComputerUseCallItem = { type: 'computer_call', callId: 'k1', status: 'completed', actions: [{ type: 'click', x: 1, y: 2, button: 'left' }] };
    const computer = computerTool({ computer: new FakeComputer(), customDataExtractor: () => ({ bad: 1n }) as never });
    const agent = new Agent({ name: 'Ops', model: new ScriptedModel([[call], [assistantMessage('done')]]), tools: [computer] });
    await expect(run(agent, 'go')).rejects.toThrow('customDataExtractor must return JSON-compatible data.');
  });

  it('an apply-patch tool extractor gets the operation, the message, the status and the raw item', async () => {
    const call: ApplyPatchCallItem = { type: 'apply_patch_call', callId: 'p1', status: 'completed', operation: { type: 'create_file', path: 'a.md', diff: '+hi' } };
    const editor: Editor = { createFile: async (op) => ({ output: `created ${op.path}` }), updateFile: async () => ({}), deleteFile: async () => ({}) };
    const patch = applyPatchTool({
      editor,
      customDataExtractor: ({ operation, output, status, rawItem }) => ({ path: (operation as { path: string }).path, output, status, raw: rawItem.type }),
    });
    const agent = new Agent({ name: 'Ops', model: new ScriptedModel([[call], [assistantMessage('done')]]), tools: [patch] });
    const [item] = outputsOf((await run(agent, 'go')).newItems);
    expect(item!.customData).toEqual({ path: 'a.md', output: 'created a.md', status: 'completed', raw: 'apply_patch_call_output' });
    expect(() => applyPatchTool({ editor, customDataExtractor: 1 as never })).toThrow('applyPatchTool "apply_patch": `customDataExtractor` must be a function, got number.');
  });
});

describe('an MCP server customDataExtractor', () => {
  function inventory(extract: (context: MCPToolCustomDataContext) => unknown, options: Partial<MCPServer> = {}) {
    const seen: MCPToolCustomDataContext[] = [];
    const server: MCPServer = {
      name: 'inventory',
      cacheToolsList: false,
      connect: async () => {},
      close: async () => {},
      listTools: async () => [{ name: 'stock', description: 'stock', inputSchema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } }],
      callTool: async () => Object.assign([{ type: 'text', text: 'from callTool' }], { _meta: { via: 'callTool' } }) as never,
      callToolResult: async (_tool, args) => ({ content: [{ type: 'text', text: `${String(args?.sku)}: 12` }], structuredContent: { count: 12 }, _meta: { requestId: `req-${String(args?.sku)}` } }),
      invalidateToolsCache: async () => {},
      customDataExtractor: (context) => (seen.push(context), extract(context) as never),
      ...options,
    };
    return { server, seen };
  }

  const runWith = (server: MCPServer, sku = 'A-1') =>
    run(new Agent({ name: 'Clerk', model: new ScriptedModel([[functionCall('stock', { sku }, { callId: `c-${sku}` })], [assistantMessage('done')]]), mcpServers: [server] }), 'go');

  it('gets the whole result (through callToolResult): its _meta, structuredContent and the model-visible output', async () => {
    const { server, seen } = inventory(({ resultMeta }) => ({ requestId: resultMeta?.requestId }));
    const [item] = outputsOf((await runWith(server)).newItems);
    expect(item!.customData).toEqual({ requestId: 'req-A-1' });
    expect(seen[0]).toMatchObject({
      serverName: 'inventory',
      toolName: 'stock',
      toolDisplayName: 'stock',
      arguments: { sku: 'A-1' },
      resultMeta: { requestId: 'req-A-1' },
      structuredContent: { count: 12 },
      toolOutput: { type: 'text', text: 'A-1: 12' },
    });
  });

  it("reads _meta from callTool's list when the server has no callToolResult", async () => {
    const { server } = inventory(({ resultMeta }) => ({ meta: resultMeta ?? null }));
    delete (server as { callToolResult?: unknown }).callToolResult;
    const [item] = outputsOf((await runWith(server)).newItems);
    expect(item!.customData).toEqual({ meta: { via: 'callTool' } });
  });

  it('keeps each run its own results when runs share the server', async () => {
    const { server } = inventory(({ arguments: args, resultMeta }) => ({ sku: args?.sku, requestId: resultMeta?.requestId }));
    const [a, b] = await Promise.all([runWith(server, 'A-1'), runWith(server, 'B-2')]);
    expect(outputsOf(a.newItems)[0]!.customData).toEqual({ sku: 'A-1', requestId: 'req-A-1' });
    expect(outputsOf(b.newItems)[0]!.customData).toEqual({ sku: 'B-2', requestId: 'req-B-2' });
  });

  it('is not asked for a call the server never answered (an input guardrail rejected it)', async () => {
    const { server, seen } = inventory(() => ({ a: 1 }), {
      toolInputGuardrails: [{ name: 'stop', run: async () => ({ behavior: { type: 'rejectContent', message: 'no' }, outputInfo: null }) }],
    });
    const [item] = outputsOf((await runWith(server)).newItems);
    expect(seen).toEqual([]);
    expect(item!.customData).toBeUndefined();
  });
});
