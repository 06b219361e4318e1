// The mcp README: a server cannot hold a run. Listing is bounded by `clientSessionTimeoutSeconds`
// and a call by `timeout`, each failing with an error rather than waiting; `cacheToolsList` keeps
// the first listing until `invalidateToolsCache()`. A connected server also reads its resources.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { MCPServerStdio, type MCPServerOptions } from '../src/index.js';

const fixture = join(import.meta.dirname, 'fixtures', 'pagingServer.mjs');
const opened: MCPServerStdio[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

async function connected(mode: string, options: Omit<MCPServerOptions, 'name'> = {}): Promise<MCPServerStdio> {
  const server = new MCPServerStdio({ name: 'paging', command: process.execPath, args: [fixture, mode], stderr: 'ignore', ...options });
  opened.push(server);
  await server.connect();
  return server;
}

async function elapsed(work: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const start = Date.now();
  let error: unknown;
  await work.catch((e) => (error = e));
  return { ms: Date.now() - start, error };
}

describe('requests a server never answers', () => {
  it('a listing fails after clientSessionTimeoutSeconds', async () => {
    const server = await connected('silent', { clientSessionTimeoutSeconds: 2 });
    const { ms, error } = await elapsed(server.listTools());
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/timed out/i);
    expect(ms).toBeGreaterThanOrEqual(1_900);
    expect(ms).toBeLessThan(10_000);
  });

  it('a call fails after `timeout` milliseconds', async () => {
    const server = await connected('pages:1', { timeout: 300 });
    const { ms, error } = await elapsed(server.callTool('mute', {}));
    expect(String((error as Error).message)).toMatch(/timed out/i);
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(5_000);
  });

  it('a call is abandoned when its signal aborts', async () => {
    const server = await connected('pages:1');
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('stop now')), 100);
    const { ms, error } = await elapsed(server.callTool('mute', {}, null, { signal: abort.signal }));
    expect(error).toBeDefined();
    expect(ms).toBeLessThan(5_000);
  });
});

describe('a call', () => {
  it('sends its arguments, {} for null, and _meta only when given', async () => {
    const server = await connected('pages:1');
    const text = async (args: Record<string, unknown> | null, meta?: Record<string, unknown> | null) =>
      JSON.parse(((await server.callTool('echo', args, meta))[0] as unknown as { text: string }).text);
    expect(await text({ q: 'x' }, { trace: 't1' })).toEqual({ arguments: { q: 'x' }, meta: { trace: 't1' } });
    expect(await text(null)).toEqual({ arguments: {}, meta: null });
    expect(await text({ q: 'y' }, null)).toEqual({ arguments: { q: 'y' }, meta: null });
  });

  it('callToolResult gives the whole result', async () => {
    const server = await connected('pages:2');
    expect(await server.callToolResult('rich', {})).toMatchObject({ content: [{ type: 'text', text: 'partly failed' }], structuredContent: { rows: 2 }, isError: true });
  });
});

describe('caching the listing', () => {
  it('without cacheToolsList every listTools() asks the server', async () => {
    const server = await connected('counting');
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_1']);
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_2']);
  });

  it('with cacheToolsList the first listing is kept until invalidateToolsCache()', async () => {
    const server = await connected('counting', { cacheToolsList: true });
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_1']);
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_1']);
    await server.invalidateToolsCache();
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_2']);
  });
});

describe('resources', () => {
  it('lists resources and templates and reads one', async () => {
    const server = await connected('pages:1');
    expect((await server.listResources()).resources).toEqual([{ uri: 'memo://one', name: 'one' }]);
    expect((await server.listResourceTemplates()).resourceTemplates).toEqual([{ uriTemplate: 'memo://{id}', name: 'memo' }]);
    expect((await server.readResource('memo://one')).contents).toEqual([{ uri: 'memo://one', text: 'the text of memo://one' }]);
  });
});

describe('connecting and closing', () => {
  it('a server that cannot start fails connect() naming it, and stays disconnected', async () => {
    const server = new MCPServerStdio({ name: 'ghost', command: join(import.meta.dirname, 'no-such-binary'), stderr: 'ignore' });
    opened.push(server);
    await expect(server.connect()).rejects.toThrow(/^MCP server "ghost" failed to connect: /);
    expect(server.connected).toBe(false);
  });

  it('two connect() calls at once open one session', async () => {
    const server = new MCPServerStdio({ name: 'paging', command: process.execPath, args: [fixture, 'counting'], stderr: 'ignore' });
    opened.push(server);
    await Promise.all([server.connect(), server.connect()]);
    expect(server.connected).toBe(true);
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_1']);
  });

  it('close() during connect() waits for it, then closes', async () => {
    const server = new MCPServerStdio({ name: 'paging', command: process.execPath, args: [fixture, 'pages:1'], stderr: 'ignore' });
    opened.push(server);
    const connecting = server.connect();
    await server.close();
    await connecting;
    expect(server.connected).toBe(false);
  });
});
