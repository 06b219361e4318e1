// More of the mcp README's promises about a server's tools, read from what crossed the boundary:
// calls reach the server with the run's abort signal (a call it cancels rejects with its reason, not
// as a failed call) and the `_meta` of `toolMetaResolver` (also
// through `callToolResult`); an error result is sent as its content, not its structuredContent; an
// errorFunction receives the detail with the server's error as its cause; a listing is cached per
// agent only when a callable filter decides per agent; and `getAllMcpTools`' reference arguments.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { MCPServer, MCPTool } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunContext, Runner, UserError, getAllMcpTools, mcpToFunctionTool, tool } from '../src/index.js';

const runner = new Runner({ tracingDisabled: true });
const listed = (name: string): MCPTool => ({ name, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });

function server(name: string, tools: MCPTool[], options: Partial<MCPServer> = {}) {
  const seen: Array<{ meta: unknown; options: unknown }> = [];
  const made = {
    name,
    cacheToolsList: false,
    listings: 0,
    seen,
    connect: async () => {},
    close: async () => {},
    listTools: async (): Promise<MCPTool[]> => (made.listings++, tools),
    callTool: async (_tool: string, _args: unknown, meta?: unknown, callOptions?: unknown) => (seen.push({ meta, options: callOptions }), [{ type: 'text', text: 'ok' }]) as never,
    invalidateToolsCache: async () => {},
    ...options,
  };
  return made;
}

async function callOnce(servers: MCPServer[], toolName: string) {
  const model = new ScriptedModel([[functionCall(toolName, { q: 'x' }, { callId: 'c1' })], [assistantMessage('done')]]);
  const result = await runner.run(new Agent({ name: 'A', model, mcpServers: servers }), 'go');
  return (result.newItems.find((i) => i.type === 'tool_call_output_item') as { output?: unknown } | undefined)?.output;
}

describe('MCP calls', () => {
  it("reach the server with the run's abort signal", async () => {
    const s = server('files', [listed('read')]);
    await callOnce([s], 'read');
    expect((s.seen[0]!.options as { signal?: unknown }).signal).toBeInstanceOf(AbortSignal);
  });

  it("cancelled by their signal are not failed calls: the call rejects with the signal's reason, unwrapped, and nothing is logged", async () => {
    // The core README: a cancelled run ends with the signal's reason, unwrapped; the mcp README's
    // failed calls (server died, protocol error, timeout) are the ones logged with their detail. As
    // on the reference, whose MCP tool lets the cancellation through as it is.
    const reason = new Error('the user left');
    let arrived!: () => void;
    const running = new Promise<void>((resolve) => (arrived = resolve));
    const s = server('files', [listed('read')], {
      callTool: (_tool, _args, _meta, callOptions) =>
        new Promise((_resolve, reject) => {
          const signal = (callOptions as { signal: AbortSignal }).signal;
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          arrived();
        }),
    });
    const made = mcpToFunctionTool(listed('read'), s, false);
    const controller = new AbortController();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const call = made.invoke(new RunContext(), '{"q":"x"}', { signal: controller.signal });
      await running;
      controller.abort(reason);
      await expect(call).rejects.toBe(reason);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('through callToolResult, carry the _meta of toolMetaResolver', async () => {
    const metas: unknown[] = [];
    const s = server('files', [listed('read')], {
      useStructuredContent: true,
      toolMetaResolver: () => ({ tenant: 't1' }),
      callToolResult: async (_tool, _args, meta) => (metas.push(meta), { content: [{ type: 'text', text: 'ok' }] }),
    });
    await callOnce([s], 'read');
    expect(metas).toEqual([{ tenant: 't1' }]);
  });

  it('an error result listed by callTool is sent as its content, even with structuredContent', async () => {
    const s = server('db', [listed('count')], {
      useStructuredContent: true,
      callTool: async () => Object.assign([{ type: 'text', text: 'failed to count' }], { structuredContent: { total: 0 }, isError: true }) as never,
    });
    expect(await callOnce([s], 'count')).toEqual({ type: 'text', text: 'failed to count' });
  });

  it("an errorFunction's error has the server's error as its cause", async () => {
    const thrown = new Error('disk full');
    const causes: unknown[] = [];
    const s = server('files', [listed('write')], {
      callTool: async () => {
        throw thrown;
      },
      errorFunction: ({ error }) => (causes.push((error as Error).cause), 'no'),
    });
    await callOnce([s], 'write');
    expect(causes).toEqual([thrown]);
    expect(causes[0]).toBe(thrown);
  });

  it('a tool listed without `required` is offered with required: []', async () => {
    const s = server('files', [{ name: 'read', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }]);
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await runner.run(new Agent({ name: 'A', model, mcpServers: [s] }), 'go');
    expect(model.firstCall!.request.tools[0]).toMatchObject({ strict: false, parameters: { required: [] } });
  });

  it('names every clash with a function tool, each with its server', async () => {
    const s = server('kb', [listed('a'), listed('b')]);
    const local = (name: string) => tool({ name, description: name, parameters: z.object({}), execute: () => name });
    const error = await runner.run(new Agent({ name: 'A', model: new ScriptedModel([]), mcpServers: [s], tools: [local('a'), local('b')] }), 'go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('"a" (MCP server "kb"), "b" (MCP server "kb")');
  });
});

describe('listing', () => {
  it('without a callable filter, a cached listing is shared by every agent', async () => {
    const s = server('shared-cache', [listed('read')], { cacheToolsList: true, toolFilter: { allowedToolNames: ['read'] } });
    for (const name of ['Reader', 'Writer']) await runner.run(new Agent({ name, model: new ScriptedModel([[assistantMessage('ok')]]), mcpServers: [s] }), 'go');
    expect(s.listings).toBe(1);
  });

  it('getAllMcpTools: not strict by default; a callable filter applies only with both the run context and the agent', async () => {
    const s = server('pos2', [listed('a'), listed('b')], { toolFilter: (_ctx, t) => t.name === 'a' });
    expect((await getAllMcpTools([s]))[0]).toMatchObject({ strict: false });
    expect((await getAllMcpTools([s], { context: {} } as never)).map((t) => t.name)).toEqual(['a', 'b']);
    expect((await getAllMcpTools([s], undefined, new Agent({ name: 'A' }) as never)).map((t) => t.name)).toEqual(['a', 'b']);
  });

  it("getAllMcpTools passes the run context to a cache key generator", async () => {
    const seen: unknown[] = [];
    const runContext = { context: { tenant: 't' } } as never;
    const s = server('keyed', [listed('a')], { cacheToolsList: true });
    await getAllMcpTools({ mcpServers: [s], runContext, agent: new Agent({ name: 'A' }) as never, generateMCPToolCacheKey: ({ server: srv, runContext: rc }) => (seen.push(rc), `${srv.name}:custom`) });
    expect(seen).toEqual([runContext]);
  });
});
