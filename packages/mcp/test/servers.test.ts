import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunContext, createMCPToolStaticFilter, getAllMcpTools, invalidateServerToolsCache, Agent } from '@baton/core';
import type { ServerProcess } from '@baton/testing';
import { connectMcpServers, MCPServerStdio, MCPServerStreamableHttp, type MCPServer } from '../src/index.js';
import { ScriptedModel, assistantMessage, functionCall, resultText } from '@baton/testing';
import { Runner } from '@baton/core';
import { everythingOverHttp, everythingOverStdio, filesystemOver, sseClient, streamableHttpClient, temporaryFolder } from './servers.js';

/** Counts `listTools()` calls that reach the server. */
function countingLists(server: MCPServer): { count: () => number } {
  let count = 0;
  const list = server.listTools.bind(server);
  server.listTools = () => {
    count++;
    return list();
  };
  return { count: () => count };
}

describe('the everything server over stdio', () => {
  const server = everythingOverStdio();
  beforeAll(() => server.connect());
  afterAll(() => server.close());

  it('lists its tools and calls one', async () => {
    const names = (await server.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'get-structured-content']));
    const content = await server.callTool('echo', { message: 'hi' });
    expect([...content]).toEqual([{ type: 'text', text: 'Echo: hi' }]);
  });

  it('keeps structured content beside the content blocks', async () => {
    const result = await server.callToolResult('get-structured-content', { location: 'Chicago' });
    expect(result.structuredContent).toEqual(expect.objectContaining({ conditions: expect.any(String) }));
    const content = await server.callTool('get-structured-content', { location: 'Chicago' });
    expect(content.structuredContent).toEqual(result.structuredContent);
  });

  it('offers its tools as function tools, the schema as listed and not strict', async () => {
    const tools = await getAllMcpTools([server]);
    const sum = tools.find((t) => t.name === 'get_sum')!;
    expect(sum).toMatchObject({ type: 'function', strict: false, mcp: { server: 'everything', toolName: 'get-sum' } });
    expect(sum.parameters).toMatchObject({ type: 'object', required: ['a', 'b'], additionalProperties: true });
    expect(await sum.invoke(new RunContext(), JSON.stringify({ a: 2, b: 3 }))).toEqual({ type: 'text', text: 'The sum of 2 and 3 is 5.' });
  });

  it('converts schemas to strict when asked', async () => {
    const [echo] = (await getAllMcpTools({ mcpServers: [server], convertSchemasToStrict: true })).filter((t) => t.name === 'echo');
    expect(echo).toMatchObject({ strict: true, parameters: { additionalProperties: false, required: ['message'] } });
  });
});

describe('tool filters', () => {
  it('static allow and block lists', async () => {
    const server = everythingOverStdio({ toolFilter: createMCPToolStaticFilter({ allowed: ['echo', 'get-sum'], blocked: ['get-sum'] })! });
    await server.connect();
    try {
      expect((await getAllMcpTools([server])).map((t) => t.name)).toEqual(['echo']);
    } finally {
      await server.close();
    }
  });

  it('a callable filter sees the run context, the agent and the server', async () => {
    const seen: string[] = [];
    const server = everythingOverStdio({
      toolFilter: ({ agent, serverName, runContext }, tool) => {
        seen.push(`${agent.name}@${serverName}:${(runContext.context as { role: string }).role}`);
        return tool.name.startsWith('get-');
      },
    });
    await server.connect();
    try {
      const agent = new Agent({ name: 'Reader', mcpServers: [server] });
      const names = (await agent.getAllTools(new RunContext({ role: 'admin' }))).map((t) => t.name);
      expect(names.every((n) => n.startsWith('get_'))).toBe(true);
      expect(names).toContain('get_sum');
      expect(seen[0]).toBe('Reader@everything:admin');
      // Without a run context and agent, a callable filter cannot decide: every tool is offered.
      expect((await getAllMcpTools([server])).map((t) => t.name)).toContain('echo');
    } finally {
      await server.close();
    }
  });
});

describe('caching the tool list', () => {
  it('lists once with cacheToolsList, again after invalidation', async () => {
    const server = everythingOverStdio({ name: 'cached-everything', cacheToolsList: true });
    await server.connect();
    const underlying = countingLists(server);
    try {
      await getAllMcpTools([server]);
      await getAllMcpTools([server]);
      expect(underlying.count()).toBe(1);
      await invalidateServerToolsCache('cached-everything');
      await getAllMcpTools([server]);
      expect(underlying.count()).toBe(2);
      await server.invalidateToolsCache();
      await getAllMcpTools([server]);
      expect(underlying.count()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('lists every time without it', async () => {
    const server = everythingOverStdio({ name: 'uncached-everything' });
    await server.connect();
    const underlying = countingLists(server);
    try {
      await getAllMcpTools([server]);
      await getAllMcpTools([server]);
      expect(underlying.count()).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('the filesystem server on a temporary folder', () => {
  const folder = temporaryFolder();
  const server = filesystemOver(folder.path);
  beforeAll(async () => {
    writeFileSync(join(folder.path, 'notes.txt'), 'buy milk');
    await server.connect();
  });
  afterAll(async () => {
    await server.close();
    folder.remove();
  });

  it('lists its tools', async () => {
    const names = (await server.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['read_text_file', 'write_file', 'list_directory', 'search_files']));
    expect((await getAllMcpTools([server])).map((t) => t.name)).toEqual(names);
  });

  it('reads and writes files in the folder only', async () => {
    expect([...(await server.callTool('read_text_file', { path: join(folder.path, 'notes.txt') }))]).toEqual([{ type: 'text', text: 'buy milk' }]);
    await server.callTool('write_file', { path: join(folder.path, 'todo.txt'), content: 'call mom' });
    expect([...(await server.callTool('read_text_file', { path: join(folder.path, 'todo.txt') }))]).toEqual([{ type: 'text', text: 'call mom' }]);
    const outside = await server.callToolResult('read_text_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
  });
});

describe('the everything server over HTTP', () => {
  let http: ServerProcess;
  beforeAll(async () => {
    http = await everythingOverHttp('streamableHttp');
  });
  afterAll(() => http.close());

  it('Streamable HTTP: connects, lists, calls, and ends its session on close', async () => {
    const server = streamableHttpClient(http);
    await server.connect();
    expect(server.sessionId).toEqual(expect.any(String));
    expect((await server.listTools()).map((t) => t.name)).toContain('get-sum');
    expect([...(await server.callTool('get-sum', { a: 1, b: 41 }))]).toEqual([{ type: 'text', text: 'The sum of 1 and 41 is 42.' }]);
    await server.close();
    expect(server.connected).toBe(false);
    expect(server.sessionId).toBeUndefined();
  });

  it('SSE: connects, lists and calls', async () => {
    const sse = await everythingOverHttp('sse');
    const server = sseClient(sse);
    try {
      await server.connect();
      expect([...(await server.callTool('echo', { message: 'over sse' }))]).toEqual([{ type: 'text', text: 'Echo: over sse' }]);
    } finally {
      await server.close();
      await sse.close();
    }
  });
});

describe('connectMcpServers', () => {
  it('opens the servers that start, reports the ones that do not, and closes them all', async () => {
    const good = everythingOverStdio({ name: 'good' });
    const broken = new MCPServerStdio({ name: 'broken', command: '/nonexistent/mcp-server', stderr: 'ignore' });
    const servers = await connectMcpServers([good, broken]);
    try {
      expect(servers.active).toEqual([good]);
      expect(servers.failed).toEqual([broken]);
      expect(servers.errors.get(broken)?.message).toMatch(/MCP server "broken" failed to connect: .*ENOENT/);
      expect(good.connected).toBe(true);
    } finally {
      await servers.close();
    }
    expect(good.connected).toBe(false);
  });

  it('strict: the first failure is thrown and what was opened is closed', async () => {
    const good = everythingOverStdio({ name: 'good' });
    const broken = new MCPServerStdio({ name: 'broken', command: '/nonexistent/mcp-server', stderr: 'ignore' });
    await expect(connectMcpServers([good, broken], { strict: true })).rejects.toThrow(/broken/);
    expect(good.connected).toBe(false);
  });
});

describe('more than one server', () => {
  it('the same tool name on two servers is a UserError naming it', async () => {
    const first = everythingOverStdio({ name: 'first', toolFilter: { allowedToolNames: ['echo', 'get-sum'] } });
    const second = everythingOverStdio({ name: 'second', toolFilter: { allowedToolNames: ['echo'] } });
    const servers = await connectMcpServers([first, second]);
    try {
      await expect(getAllMcpTools(servers.active)).rejects.toThrow('Duplicate tool names found across MCP servers: echo');
      const model = new ScriptedModel([[assistantMessage('never')]]);
      await expect(new Runner({ tracingDisabled: true }).run(new Agent({ name: 'A', model, mcpServers: servers.active }), 'go')).rejects.toThrow(/Duplicate tool names/);
    } finally {
      await servers.close();
    }
  });

  it('fullCommand splits into command and arguments', () => {
    const server = new MCPServerStdio({ fullCommand: 'node server.js --port 3' });
    expect([server.command, server.args, server.name]).toEqual(['node', ['server.js', '--port', '3'], 'stdio: node']);
  });
});

describe('toolMetaResolver', () => {
  it('sends the `_meta` it returns with each call, seeing the run context, server, tool and arguments', async () => {
    const server = new MCPServerStdio({
      name: 'raw',
      command: process.execPath,
      args: [join(import.meta.dirname, 'fixtures', 'rawServer.mjs')],
      toolMetaResolver: ({ runContext, serverName, toolName, arguments: args }) => ({ tenant: (runContext.context as { tenant: string }).tenant, serverName, toolName, q: args?.q }),
    });
    const model = new ScriptedModel([[functionCall('meta', { q: 'x' }, { callId: 'c1' })], [assistantMessage('ok')]]);
    await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'A', model, mcpServers: [server] }), 'go', { context: { tenant: 'acme' } });
    expect(JSON.parse(resultText(model.lastCall, 'c1'))).toEqual({ meta: { tenant: 'acme', serverName: 'raw', toolName: 'meta', q: 'x' }, arguments: { q: 'x' } });
  });
});

describe('bad options', () => {
  it.each([
    [() => new MCPServerStdio({ command: '' }), /`command` \(or `fullCommand`\) must be a non-empty string/],
    [() => everythingOverStdio({ timeout: 0 }), /`timeout` must be a positive number, got 0/],
    [() => everythingOverStdio({ maxListPages: 1.5 }), /`maxListPages` must be a positive integer/],
    [() => everythingOverStdio({ requireApproval: { always: { toolNames: 'echo' } } as never }), /`requireApproval.always.toolNames` must be a list of tool names/],
    [() => everythingOverStdio({ requireApproval: 'sometimes' as never }), /`requireApproval` must be 'always', 'never'/],
    [() => new MCPServerStreamableHttp({ url: 'not a url' }), /MCPServerStreamableHttp: `url` is not a valid URL: "not a url"/],
  ])('%#: a UserError naming the option', (make, message) => {
    expect(make).toThrow(message);
  });

  it('calling a server that is not connected names it', async () => {
    await expect(everythingOverStdio({ name: 'idle' }).listTools()).rejects.toThrow('MCP server "idle" is not connected: call connect() first');
  });
});
