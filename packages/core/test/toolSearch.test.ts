import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  MaxTurnsExceededError,
  ModelBehaviorError,
  RunContext,
  RunState,
  RunToolSearchCallItem,
  RunToolSearchOutputItem,
  UserError,
  attachClientToolSearchExecutor,
  getToolSearchRuntimeToolKey,
  run,
  tool,
  toolNamespace,
  type HostedTool,
  type RunStreamEvent,
  type ToolSearchCallItem,
} from '../src/index.js';

const account = () =>
  tool({ name: 'lookup_account', description: 'Looks up an account', parameters: z.object({ id: z.string() }), execute: ({ id }) => `account ${id}` });

const searchCall = (args: unknown, callId = 'search_1', execution: 'client' | 'server' | undefined = 'client'): ToolSearchCallItem => ({
  type: 'tool_search_call',
  id: `ts_${callId}`,
  status: 'completed',
  arguments: args,
  providerData: { call_id: callId, ...(execution ? { execution } : {}) },
});

/** A client tool search with its own arguments (`{ topic }`), answered by `execute`. */
const customSearch = (execute: Parameters<typeof attachClientToolSearchExecutor>[1]): HostedTool =>
  attachClientToolSearchExecutor(
    {
      type: 'hosted_tool',
      name: 'tool_search',
      providerData: { type: 'tool_search', execution: 'client', parameters: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] } },
    },
    execute,
  );

const builtInSearch: HostedTool = { type: 'hosted_tool', name: 'tool_search', providerData: { type: 'tool_search', execution: 'client' } };

describe('getToolSearchRuntimeToolKey', () => {
  it('names a function tool by its qualified name, an MCP server by its label, and nothing else', () => {
    const [namespaced] = toolNamespace({ name: 'crm', description: 'CRM', tools: [account()] });
    expect(getToolSearchRuntimeToolKey(account())).toBe('lookup_account');
    expect(getToolSearchRuntimeToolKey(namespaced!)).toBe('crm.lookup_account');
    expect(getToolSearchRuntimeToolKey({ type: 'hosted_tool', name: 'hosted_mcp', providerData: { type: 'mcp', server_label: 'docs' } })).toBe('mcp:docs');
    expect(getToolSearchRuntimeToolKey({ type: 'hosted_tool', name: 'web_search' })).toBeUndefined();
  });
});

describe('client tool search in the run loop', () => {
  it('answers with the executor, loads its tools into the next turn, and keeps both items in newItems and history', async () => {
    const lookup = account();
    const execute = vi.fn(async (_args: unknown) => lookup);
    const search = customSearch(execute);
    const model = new ScriptedModel([[searchCall({ topic: 'crm' })], [functionCall('lookup_account', { id: '42' }, { callId: 'c1' })], [assistantMessage('found')]]);
    const agent = new Agent({ name: 'Clerk', model, tools: [search] });
    const state = new RunState(new RunContext(), 'find 42', agent, 10);

    const result = await run(agent, state);

    expect(result.finalOutput).toBe('found');
    expect(execute).toHaveBeenCalledTimes(1);
    const args = execute.mock.calls[0]![0] as unknown as { agent: unknown; availableTools: unknown[]; runContext: unknown; toolCall: unknown; loadDefault: (p: string[]) => unknown[] };
    expect(args.agent).toBe(agent);
    expect(args.availableTools).toEqual([search]);
    expect(args.runContext).toBe(state.context);
    expect(args.toolCall).toMatchObject({ type: 'tool_search_call', arguments: { topic: 'crm' } });
    expect(args.loadDefault(['nothing_by_that_name'])).toEqual([]);
    expect(result.newItems.map((item) => item.type)).toEqual(['tool_search_call_item', 'tool_search_output_item', 'tool_call_item', 'tool_call_output_item', 'message_output_item']);
    const output = result.newItems[1] as RunToolSearchOutputItem;
    expect(output.rawItem).toEqual({
      type: 'tool_search_output',
      status: 'completed',
      tools: [{ type: 'function', name: 'lookup_account', description: 'Looks up an account', parameters: expect.any(Object), strict: true }],
      providerData: { call_id: 'search_1', execution: 'client' },
    });
    // The loaded tool is offered from the next turn on, and its call runs.
    expect(model.calls[1]!.request.tools).toEqual([expect.objectContaining({ name: 'lookup_account' }), expect.objectContaining({ type: 'hosted_tool', name: 'tool_search' })]);
    expect(model.calls[1]!.request.input).toContainEqual(output.rawItem);
    expect(result.history).toContainEqual(expect.objectContaining({ type: 'function_call_result', callId: 'c1' }));
    expect(state.getToolSearchRuntimeTools(agent)).toEqual([lookup]);
  });

  it('loads deferred tools by path with the built-in loader (no executor), namespace members under one namespace entry', async () => {
    const deferred = tool({ name: 'eta', description: 'Shipping ETA', parameters: z.object({}), deferLoading: true, execute: () => 'tomorrow' });
    const [crm] = toolNamespace({ name: 'crm', description: 'Customer records', tools: [tool({ name: 'find', description: 'Find', parameters: z.object({}), deferLoading: true, execute: () => 'x' })] });
    const model = new ScriptedModel([[searchCall({ paths: ['eta', 'crm', 'missing'] })], [assistantMessage('ok')]]);
    const agent = new Agent({ name: 'Loader', model, tools: [builtInSearch, deferred, crm!] });
    const result = await run(agent, 'go');
    const output = result.newItems.find((item): item is RunToolSearchOutputItem => item instanceof RunToolSearchOutputItem)!;
    expect(output.rawItem.tools).toEqual([
      expect.objectContaining({ type: 'function', name: 'eta', deferLoading: true }),
      { type: 'namespace', name: 'crm', description: 'Customer records', tools: [expect.objectContaining({ name: 'find' })] },
    ]);
    expect(result.finalOutput).toBe('ok');
  });

  it('does not answer a server search, nor a client search the response already answers', async () => {
    const execute = vi.fn(async () => null);
    const answered = { type: 'tool_search_output' as const, tools: [], providerData: { call_id: 'search_2', execution: 'client' } };
    const model = new ScriptedModel([[searchCall({ topic: 'x' }, 'search_1', 'server'), searchCall({ topic: 'y' }, 'search_2'), answered, assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'Quiet', model, tools: [customSearch(execute)] }), 'go');
    expect(execute).not.toHaveBeenCalled();
    expect(result.finalOutput).toBe('done');
    expect(result.newItems.map((item) => item.type)).toEqual(['tool_search_call_item', 'tool_search_call_item', 'tool_search_output_item', 'message_output_item']);
  });

  it('streams tool_search_called and tool_search_output_created events', async () => {
    const model = new ScriptedModel([[searchCall({ paths: [] })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'Streamer', model, tools: [builtInSearch] }), 'go', { stream: true });
    const names: string[] = [];
    for await (const event of result as AsyncIterable<RunStreamEvent>) if (event.type === 'run_item_stream_event') names.push(event.name);
    await result.completed;
    expect(names).toEqual(['tool_search_called', 'tool_search_output_created', 'message_output_created']);
  });

  it('survives toString() / fromString(): the executor is asked again for the tools it loaded, and the run goes on with them', async () => {
    const lookup = account();
    const execute = vi.fn(async (_args: unknown) => lookup);
    const model = new ScriptedModel([[searchCall({ topic: 'crm' })], [functionCall('lookup_account', { id: '7' }, { callId: 'c7' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Resumer', model, tools: [customSearch(execute)] });
    const error = (await run(agent, 'go', { maxTurns: 1 }).catch((e: unknown) => e)) as MaxTurnsExceededError;
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    const restored = await RunState.fromString(agent, error.state!.toString());
    expect(execute).toHaveBeenCalledTimes(2);
    expect(restored.getToolSearchRuntimeTools(agent)).toEqual([lookup]);
    expect(restored.generatedItems.map((item) => item.constructor)).toEqual([RunToolSearchCallItem, RunToolSearchOutputItem]);
    const result = await run(agent, restored, { maxTurns: 5 });
    expect(result.finalOutput).toBe('done');
    expect(result.newItems).toContainEqual(expect.objectContaining({ type: 'tool_call_output_item', output: 'account 7' }));
  });

  it('refuses to read back loaded tools without the executor that loaded them', async () => {
    // A copy of the tool has no executor (it is not enumerable), but keeps the custom parameters.
    const agent = new Agent({ name: 'NoExecutor', model: new ScriptedModel([]), tools: [{ ...customSearch(async () => null) }] });
    const state = new RunState(new RunContext(), 'go', agent, 5);
    state._generatedItems.push(
      new RunToolSearchCallItem(searchCall({ topic: 'crm' }), agent),
      new RunToolSearchOutputItem({ type: 'tool_search_output', tools: [], providerData: { call_id: 'search_1', execution: 'client' } }, agent),
    );
    await expect(RunState.fromString(agent, state.toString())).rejects.toThrow(UserError);
    await expect(RunState.fromString(agent, state.toString())).rejects.toThrow('require toolSearchTool({ execution: "client", execute })');
  });

  describe('bad answers', () => {
    it('an executor returning two tools of one name fails the run with a ModelBehaviorError, and its state stays resumable', async () => {
      const model = new ScriptedModel([[searchCall({ topic: 'crm' })]]);
      const agent = new Agent({ name: 'Twice', model, tools: [customSearch(async () => [account(), account()])] });
      const error = (await run(agent, 'go').catch((e: unknown) => e)) as ModelBehaviorError;
      expect(error).toBeInstanceOf(ModelBehaviorError);
      expect(error.message).toContain('two tools routed as lookup_account');
      expect((await RunState.fromString(agent, error.state!.toString())).currentTurn).toBe(1);
    });

    it('a built-in search without { paths } is a ModelBehaviorError naming the call', async () => {
      const model = new ScriptedModel([[searchCall({ query: 'crm' }, 'search_9')]]);
      const error = await run(new Agent({ name: 'NoPaths', model, tools: [builtInSearch] }), 'go').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelBehaviorError);
      expect((error as Error).message).toContain('search_9');
    });

    it('a path naming no tool loads nothing, and a call to a tool the search did not load is answered as an unknown tool', async () => {
      const model = new ScriptedModel([[searchCall({ paths: ['ghost'] })], [functionCall('ghost', {}, { callId: 'g1' })], [assistantMessage('gave up')]]);
      const result = await run(new Agent({ name: 'Ghost', model, tools: [builtInSearch] }), 'go');
      expect((result.newItems[1] as RunToolSearchOutputItem).rawItem.tools).toEqual([]);
      expect(result.finalOutput).toBe('gave up');
      expect(JSON.stringify(model.calls[2]!.request.input)).toContain('ghost');
    });
  });
});

describe('RunState._maxTurns', () => {
  it('can be raised before resuming a state, and refuses what is not a limit', async () => {
    const agent = new Agent({ name: 'Limits', model: new ScriptedModel([[assistantMessage('done')]]) });
    const state = new RunState(new RunContext(), 'go', agent, 1);
    state._maxTurns = 10;
    expect(state.maxTurns).toBe(10);
    expect(() => (state._maxTurns = -1)).toThrow(UserError);
    expect(() => (state._maxTurns = 1.5)).toThrow('RunState._maxTurns must be a non-negative whole number or null, got 1.5.');
    expect((await run(agent, state)).finalOutput).toBe('done');
  });
});
