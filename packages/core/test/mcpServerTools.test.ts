// The mcp README's promises about a server's tools inside a run, checked from what crossed the
// boundary (the tools the model was offered, the results it received, what the server was called
// with), over in-process MCP servers:
// - results reach the model as the reference sends them: one content block alone, several as a
//   list; `useStructuredContent` sends a result's `structuredContent` as JSON;
// - a failed call gives the model the reference's fixed text, never the server's error; the detail
//   (`MCP server "files" failed to run tool "write_file": …`) reaches an `errorFunction`; `null`
//   fails the run; a server's own `errorFunction` wins over the agent's `mcpConfig.errorFunction`;
// - `toolMetaResolver` gives the `_meta` sent with each call;
// - `requireApproval` pauses matching calls (`'always'`, `'never'`, by tool name, a function);
// - two servers offering one name are a `UserError`; so is a listing that is not a list;
// - `convertSchemasToStrict` offers strict schemas where the schema allows it.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { CallToolResult, MCPServer, MCPTool } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall, toolResultsOf } from '@baton/testing';
import { recordingTracer } from './helpers.js';
import { Agent, Runner, ToolCallError, UserError, createMCPToolStaticFilter, getAllMcpTools, invalidateServerToolsCache, tool, type MCPConfig } from '../src/index.js';

const runner = new Runner({ tracingDisabled: true });

interface Call {
  tool: string;
  args: Record<string, unknown> | null;
  meta: Record<string, unknown> | null | undefined;
}

function server(name: string, tools: MCPTool[], answer: (tool: string) => unknown, options: Partial<MCPServer> = {}): MCPServer & { calls: Call[]; listings: number } {
  const made = {
    name,
    cacheToolsList: false,
    calls: [] as Call[],
    listings: 0,
    connect: async () => {},
    close: async () => {},
    listTools: async () => {
      made.listings++;
      return tools;
    },
    callTool: async (tool: string, args: Record<string, unknown> | null, meta?: Record<string, unknown> | null) => {
      made.calls.push({ tool, args, meta });
      const answered = await answer(tool);
      return answered as never;
    },
    invalidateToolsCache: async () => {},
    ...options,
  };
  return made;
}

const listed = (name: string, properties: Record<string, unknown> = { q: { type: 'string' } }): MCPTool => ({
  name,
  description: `${name} tool`,
  inputSchema: { type: 'object', properties, required: Object.keys(properties) },
});

/** One run where the model calls `tool` with `args`, then answers; returns what the model received. */
async function callOnce(servers: MCPServer[], tool: string, args: Record<string, unknown> = { q: 'x' }, options: { mcpConfig?: MCPConfig } = {}) {
  const model = new ScriptedModel([[functionCall(tool, args, { callId: 'm1' })], [assistantMessage('done')]]);
  const agent = new Agent({ name: 'A', model, mcpServers: servers, ...(options.mcpConfig ? { mcpConfig: options.mcpConfig } : {}) });
  const result = await runner.run(agent, 'go');
  // What the tool returned (the run item's `output`), and what the model then received.
  const item = result.newItems.find((i) => i.type === 'tool_call_output_item') as { output?: unknown } | undefined;
  return { result, model, returned: item?.output, output: toolResultsOf(model.lastCall)[0]?.output };
}

describe('MCP tool results reach the model as the reference sends them', () => {
  it('one content block alone', async () => {
    const s = server('files', [listed('read')], () => [{ type: 'text', text: 'hello' }]);
    const { returned, output } = await callOnce([s], 'read');
    expect(returned).toEqual({ type: 'text', text: 'hello' });
    expect(output).toEqual([{ type: 'input_text', text: 'hello' }]);
    expect(s.calls).toEqual([{ tool: 'read', args: { q: 'x' }, meta: null }]);
  });

  it('several blocks as a list', async () => {
    const s = server('files', [listed('read')], () => [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
    const { returned, output } = await callOnce([s], 'read');
    expect(returned).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
    expect(output).toEqual([
      { type: 'input_text', text: 'a' },
      { type: 'input_text', text: 'b' },
    ]);
  });

  it('with useStructuredContent, the structuredContent as JSON; without it, or on an error result, the content', async () => {
    const result = (isError: boolean): CallToolResult => ({ content: [{ type: 'text', text: 'plain' }], structuredContent: { total: 3 }, ...(isError ? { isError } : {}) });
    const withStructured = server('db', [listed('count')], () => undefined, { useStructuredContent: true, callToolResult: async () => result(false) });
    expect((await callOnce([withStructured], 'count')).returned).toBe('{"total":3}');
    const errorResult = server('db', [listed('count')], () => undefined, { useStructuredContent: true, callToolResult: async () => result(true) });
    expect((await callOnce([errorResult], 'count')).returned).toEqual({ type: 'text', text: 'plain' });
    // Through callTool (no callToolResult): the list's structuredContent is carried over.
    const viaList = server('db', [listed('count')], () => Object.assign([{ type: 'text', text: 'plain' }], { structuredContent: { total: 4 } }), { useStructuredContent: true });
    expect((await callOnce([viaList], 'count')).returned).toBe('{"total":4}');
    const off = server('db', [listed('count')], () => Object.assign([{ type: 'text', text: 'plain' }], { structuredContent: { total: 4 } }));
    expect((await callOnce([off], 'count')).returned).toEqual({ type: 'text', text: 'plain' });
    const offWithResult = server('db', [listed('count')], () => [{ type: 'text', text: 'from callTool' }], { callToolResult: async () => result(false) });
    expect((await callOnce([offWithResult], 'count')).returned).toEqual({ type: 'text', text: 'from callTool' });
  });

  it('sends the _meta of toolMetaResolver, which sees the server, the tool and the arguments', async () => {
    const seen: unknown[] = [];
    const s = server('files', [listed('read')], () => [{ type: 'text', text: 'ok' }], {
      toolMetaResolver: async ({ serverName, toolName, arguments: args }) => (seen.push({ serverName, toolName, args }), { trace: 't-1' }),
    });
    await callOnce([s], 'read', { q: 'y' });
    expect(seen).toEqual([{ serverName: 'files', toolName: 'read', args: { q: 'y' } }]);
    expect(s.calls).toEqual([{ tool: 'read', args: { q: 'y' }, meta: { trace: 't-1' } }]);
  });
});

describe('a failed MCP call', () => {
  const failing = (options: Partial<MCPServer> = {}) =>
    server(
      'files',
      [listed('write_file')],
      () => {
        throw new Error('Request timed out');
      },
      options,
    );

  it("gives the model the reference's fixed text, never the server's error", async () => {
    const { output } = await callOnce([failing()], 'write_file');
    expect(output).toEqual({ type: 'text', text: 'An error occurred while running the tool. Please try again.' });
  });

  it('gives an errorFunction the detail naming server and tool; the server\'s own wins over mcpConfig\'s', async () => {
    const errors: string[] = [];
    const own = failing({ errorFunction: ({ error }) => (errors.push((error as Error).message), 'server says no') });
    const { output } = await callOnce([own], 'write_file', { q: 'x' }, { mcpConfig: { errorFunction: () => 'agent says no' } });
    expect(output).toEqual({ type: 'text', text: 'server says no' });
    expect(errors).toEqual(['MCP server "files" failed to run tool "write_file": Request timed out']);
    const viaConfig = await callOnce([failing()], 'write_file', { q: 'x' }, { mcpConfig: { errorFunction: () => 'agent says no' } });
    expect(viaConfig.output).toEqual({ type: 'text', text: 'agent says no' });
  });

  it('with errorFunction null fails the run with a ToolCallError carrying the detail', async () => {
    const error = await callOnce([failing({ errorFunction: null })], 'write_file').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).error.message).toBe('MCP server "files" failed to run tool "write_file": Request timed out');
    const viaConfig = await callOnce([failing()], 'write_file', { q: 'x' }, { mcpConfig: { errorFunction: null } }).catch((e: unknown) => e);
    expect(viaConfig).toBeInstanceOf(ToolCallError);
  });

  it('a callTool answer that is not a content list is a failed call', async () => {
    const s = server('files', [listed('read')], () => 'not a list', { errorFunction: ({ error }) => (error as Error).message });
    const { output } = await callOnce([s], 'read');
    expect(output).toEqual({ type: 'text', text: 'MCP server "files" failed to run tool "read": callTool() returned string, not a list of content blocks' });
  });
});

describe('requireApproval on an MCP server', () => {
  async function pauses(policy: MCPServer['requireApproval'], tool: string): Promise<boolean> {
    const s = server('ops', [listed('deploy'), listed('status')], () => [{ type: 'text', text: 'ok' }], policy === undefined ? {} : { requireApproval: policy });
    const model = new ScriptedModel([[functionCall(tool, { q: 'x' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const result = await runner.run(new Agent({ name: 'A', model, mcpServers: [s] }), 'go');
    return result.interruptions.length > 0;
  }

  it("'always' pauses every call, 'never' and no policy none", async () => {
    expect(await pauses('always', 'status')).toBe(true);
    expect(await pauses('never', 'deploy')).toBe(false);
    expect(await pauses(undefined, 'deploy')).toBe(false);
  });

  it('by tool name: listed under always pauses, under never (which wins) or unlisted does not', async () => {
    expect(await pauses({ always: { toolNames: ['deploy'] } }, 'deploy')).toBe(true);
    expect(await pauses({ always: { toolNames: ['deploy'] } }, 'status')).toBe(false);
    expect(await pauses({ never: { toolNames: ['deploy'] }, always: { toolNames: ['deploy'] } }, 'deploy')).toBe(false);
    expect(await pauses({ never: { toolNames: ['status'] } }, 'deploy')).toBe(false);
  });

  it('a function decides from the server, the tool, the arguments and the call id', async () => {
    const seen: unknown[] = [];
    const policy: MCPServer['requireApproval'] = async ({ serverName, toolName, arguments: args, callId }) => {
      seen.push({ serverName, toolName, args, callId });
      return toolName === 'deploy';
    };
    expect(await pauses(policy, 'deploy')).toBe(true);
    expect(await pauses(policy, 'status')).toBe(false);
    expect(seen).toEqual([
      { serverName: 'ops', toolName: 'deploy', args: { q: 'x' }, callId: 'c1' },
      { serverName: 'ops', toolName: 'status', args: { q: 'x' }, callId: 'c1' },
    ]);
  });
});

describe('listing MCP tools', () => {
  it('two servers offering one name are a UserError naming it', async () => {
    const a = server('a', [listed('search'), listed('zeta')], () => []);
    const b = server('b', [listed('zeta'), listed('search')], () => []);
    const model = new ScriptedModel([[assistantMessage('never')]]);
    const error = await runner.run(new Agent({ name: 'A', model, mcpServers: [a, b] }), 'go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('Duplicate tool names found across MCP servers: search, zeta');
    expect(model.calls).toHaveLength(0);
  });

  it('a listing that is not a list is a UserError naming the server', async () => {
    const s = server('odd', [], () => [], { listTools: async () => ({ tools: [] }) as never });
    const error = await runner.run(new Agent({ name: 'A', model: new ScriptedModel([]), mcpServers: [s] }), 'go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    // Its own UserError, not wrapped again as "could not list its tools".
    expect((error as Error).message).toBe('MCP server "odd": listTools() returned object, not a list of tools.');
  });

  it('offers each tool with its description, and non-strict by default (any extra keys allowed)', async () => {
    const s = server('files', [listed('read')], () => []);
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await runner.run(new Agent({ name: 'A', model, mcpServers: [s] }), 'go');
    expect(model.firstCall!.request.tools).toEqual([
      expect.objectContaining({ name: 'read', description: 'read tool', strict: false, parameters: expect.objectContaining({ additionalProperties: true }) }),
    ]);
  });

  it('with convertSchemasToStrict, a closed schema is offered strict; an object open to any keys stays non-strict', async () => {
    const closed = listed('read');
    const open = listed('write', { payload: { type: 'object' } });
    const empty: MCPTool = { name: 'ping', inputSchema: {} as MCPTool['inputSchema'] };
    const s = server('files', [closed, open, empty], () => []);
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await runner.run(new Agent({ name: 'A', model, mcpServers: [s], mcpConfig: { convertSchemasToStrict: true } }), 'go');
    const byName = Object.fromEntries(model.firstCall!.request.tools.map((t: any) => [t.name, t]));
    expect(byName.read).toMatchObject({ strict: true, parameters: { type: 'object', additionalProperties: false, required: ['q'] } });
    expect(byName.write).toMatchObject({ strict: false });
    expect(byName.ping).toMatchObject({ strict: true, description: '', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false } });
  });

  it('with cacheToolsList, a server is listed once across runs; without it, every run', async () => {
    const cached = server('cached-once', [listed('read')], () => [], { cacheToolsList: true });
    const fresh = server('listed-each', [listed('find')], () => []);
    for (let i = 0; i < 3; i++) await runner.run(new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('ok')]]), mcpServers: [cached, fresh] }), 'go');
    expect(cached.listings).toBe(1);
    expect(fresh.listings).toBe(3);
  });

  it('getAllMcpTools with the reference\'s positional arguments applies a callable filter given the run context and agent', async () => {
    const s = server('pos', [listed('a'), listed('b')], () => [], { toolFilter: (_ctx, tool) => tool.name === 'a' });
    const agent = new Agent({ name: 'A' });
    const all = await getAllMcpTools([s]);
    expect(all.map((t) => t.name)).toEqual(['a', 'b']);
    const filtered = await getAllMcpTools([s], { context: {} } as never, agent as never);
    expect(filtered.map((t) => t.name)).toEqual(['a']);
    const strict = await getAllMcpTools([server('st', [listed('c')], () => [])], undefined, undefined, true);
    expect(strict[0]).toMatchObject({ strict: true });
  });
});

describe('MCP tools beside function tools', () => {
  const echo = () => tool({ name: 'search', description: 'local search', parameters: z.object({}), execute: () => 'local' });

  it('are offered first, then the function tools (the reference\'s order)', async () => {
    const s = server('kb', [listed('lookup')], () => []);
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await runner.run(new Agent({ name: 'A', model, mcpServers: [s], tools: [tool({ name: 'local', description: 'l', parameters: z.object({}), execute: () => 'x' })] }), 'go');
    expect(model.firstCall!.request.tools.map((t) => t.name)).toEqual(['lookup', 'local']);
  });

  it('a name both offer is a UserError naming the MCP tool and its server; with the warn policy the MCP tool is left out', async () => {
    const s = () => server('kb', [listed('search'), listed('fetch')], () => []);
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const error = await runner.run(new Agent({ name: 'Helper', model, mcpServers: [s()], tools: [echo()] }), 'go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('Agent "Helper"');
    expect((error as Error).message).toContain('"search" (MCP server "kb") is used by more than one tool or handoff');
    expect(model.calls).toHaveLength(0);
    const warned = new ScriptedModel([[assistantMessage('ok')]]);
    await runner.run(new Agent({ name: 'Helper', model: warned, mcpServers: [s()], tools: [echo()] }), 'go', { toolNameCollisionPolicy: 'warn' });
    expect(warned.firstCall!.request.tools.map((t) => [t.name, (t as { description?: string }).description])).toEqual([
      ['fetch', 'fetch tool'],
      ['search', 'local search'],
    ]);
  });

  it('a server that cannot list fails the run with a UserError naming it', async () => {
    const s = server('broken', [], () => [], {
      listTools: async () => {
        throw new Error('connection refused');
      },
    });
    const error = await runner.run(new Agent({ name: 'A', model: new ScriptedModel([]), mcpServers: [s] }), 'go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('MCP server "broken" could not list its tools: connection refused');
  });

  it('with includeServerInToolNames, each tool is offered as mcp_<server>__<tool> and called under its own name', async () => {
    const a = server('left', [listed('search')], () => [{ type: 'text', text: 'from left' }]);
    const b = server('right', [listed('search')], () => [{ type: 'text', text: 'from right' }]);
    const model = new ScriptedModel([[functionCall('mcp_right__search', { q: 'x' }, { callId: 'r1' })], [assistantMessage('done')]]);
    await runner.run(new Agent({ name: 'A', model, mcpServers: [a, b], mcpConfig: { includeServerInToolNames: true } }), 'go');
    expect(model.firstCall!.request.tools.map((t) => t.name)).toEqual(['mcp_left__search', 'mcp_right__search']);
    expect(b.calls).toEqual([{ tool: 'search', args: { q: 'x' }, meta: null }]);
    expect(a.calls).toEqual([]);
  });
});

describe("a server's guardrails, cache and logging", () => {
  it('toolInputGuardrails are checked before every call (a rejection keeps the call from the server)', async () => {
    const s = server('files', [listed('read')], () => [{ type: 'text', text: 'secret' }], {
      toolInputGuardrails: [{ type: 'tool_input', name: 'no_reads', run: async () => ({ behavior: { type: 'rejectContent', message: 'reads are off' } }) } as never],
    });
    const { output } = await callOnce([s], 'read');
    expect(output).toEqual({ type: 'text', text: 'reads are off' });
    expect(s.calls).toEqual([]);
  });

  it('toolOutputGuardrails are checked after every call returns', async () => {
    const s = server('files', [listed('read')], () => [{ type: 'text', text: 'secret' }], {
      toolOutputGuardrails: [{ type: 'tool_output', name: 'redact', run: async () => ({ behavior: { type: 'rejectContent', message: 'redacted' } }) } as never],
    });
    const { output } = await callOnce([s], 'read');
    expect(output).toEqual({ type: 'text', text: 'redacted' });
    expect(s.calls).toHaveLength(1);
  });

  it('with a callable filter, a cached listing is kept per agent (the filter decides per agent)', async () => {
    const s = server('per-agent-cache', [listed('read')], () => [], { cacheToolsList: true, toolFilter: () => true });
    const runAs = (name: string) => runner.run(new Agent({ name, model: new ScriptedModel([[assistantMessage('ok')]]), mcpServers: [s] }), 'go');
    await runAs('Reader');
    await runAs('Reader');
    expect(s.listings).toBe(1);
    await runAs('Writer');
    expect(s.listings).toBe(2);
  });

  it('invalidateServerToolsCache makes the next run list again', async () => {
    const s = server('invalidated', [listed('read')], () => [], { cacheToolsList: true });
    const runOnce = () => runner.run(new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('ok')]]), mcpServers: [s] }), 'go');
    await runOnce();
    await runOnce();
    expect(s.listings).toBe(1);
    await invalidateServerToolsCache('invalidated');
    await runOnce();
    expect(s.listings).toBe(2);
  });

  it('getAllMcpTools marks each tool with its server and raw name, also under server-prefixed names', async () => {
    const a = server('left', [listed('search')], () => []);
    const b = server('right', [listed('search')], () => []);
    const tools = await getAllMcpTools({ mcpServers: [a, b], includeServerInToolNames: true });
    expect(tools.map((t) => [t.name, t.mcp])).toEqual([
      ['mcp_left__search', { server: 'left', toolName: 'search' }],
      ['mcp_right__search', { server: 'right', toolName: 'search' }],
    ]);
  });

  it("without an errorFunction, the failed call's detail is logged as a warning", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await callOnce([server('files', [listed('write_file')], () => Promise.reject(new Error('disk full')))], 'write_file');
      expect(warn.mock.calls.map((call) => String(call[0]))).toContain('MCP server "files" failed to run tool "write_file": disk full');
    } finally {
      warn.mockRestore();
    }
  });

  it('with an errorFunction of its own, the detail goes to it and is not logged (the warning is the default\'s; the reference logs no failed call)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const errors: string[] = [];
      const s = server('files', [listed('write_file')], () => Promise.reject(new Error('disk full')), {
        errorFunction: ({ error }) => (errors.push((error as Error).message), 'could not write'),
      });
      const { output } = await callOnce([s], 'write_file');
      expect(output).toEqual({ type: 'text', text: 'could not write' });
      expect(errors).toEqual(['MCP server "files" failed to run tool "write_file": disk full']);
      expect(warn.mock.calls.map((call) => String(call[0])).filter((m) => m.includes('failed to run tool'))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('tracing the listing', () => {
  it("one baton.mcp.list_tools span per server and turn, with the server and the names offered after filters (core README's span table)", async () => {
    const kb = server('kb', [listed('lookup'), listed('drop')], () => [], { toolFilter: { blockedToolNames: ['drop'] } });
    const files = server('files', [listed('read')], () => []);
    const { tracer, spans } = recordingTracer();
    await new Runner({ tracer }).run(new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('ok')]]), mcpServers: [kb, files] }), 'go');
    const listings = spans.filter((s) => s.name === 'baton.mcp.list_tools');
    expect(listings.map((s) => s.attributes)).toEqual([
      expect.objectContaining({ 'baton.mcp.server': 'kb', 'baton.mcp.tools': ['lookup'] }),
      expect.objectContaining({ 'baton.mcp.server': 'files', 'baton.mcp.tools': ['read'] }),
    ]);
    // Under the agent span, not the turn's: the reference lists an agent's tools before its turn starts.
    expect(listings.map((s) => s.parent)).toEqual(['baton.agent', 'baton.agent']);
  });
});

describe('createMCPToolStaticFilter', () => {
  it('is undefined with nothing to allow or block, else the lists given', () => {
    expect(createMCPToolStaticFilter()).toBeUndefined();
    expect(createMCPToolStaticFilter({ allowed: [], blocked: [] })).toBeUndefined();
    expect(createMCPToolStaticFilter({ allowed: ['a'] })).toEqual({ allowedToolNames: ['a'] });
    expect(createMCPToolStaticFilter({ blocked: ['b'] })).toEqual({ blockedToolNames: ['b'] });
    expect(createMCPToolStaticFilter({ allowed: ['a'], blocked: ['b'] })).toEqual({ allowedToolNames: ['a'], blockedToolNames: ['b'] });
  });
});
