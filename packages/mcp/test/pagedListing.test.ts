// The mcp README: listing an untrusted server is bounded. `listTools()` follows the server's
// cursors and gathers every page, but at most `maxListPages` of them (default 64): a server that
// keeps returning new cursors is an error saying to raise it, and one that repeats a cursor ends
// the listing with what came so far (it would otherwise be listed forever). What rides beside a
// call's content list (structured content, `isError`, `_meta`) is kept.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { MCPServerStdio, type MCPServerOptions } from '../src/index.js';

const fixture = join(import.meta.dirname, 'fixtures', 'pagingServer.mjs');
const opened: MCPServerStdio[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

async function pagingServer(mode: string, options: Omit<MCPServerOptions, 'name'> = {}): Promise<MCPServerStdio> {
  const server = new MCPServerStdio({ name: 'paging', command: process.execPath, args: [fixture, mode], stderr: 'ignore', ...options });
  opened.push(server);
  await server.connect();
  return server;
}

describe('listing tools page by page', () => {
  it('gathers the tools of every page, in order', async () => {
    const server = await pagingServer('pages:3');
    expect((await server.listTools()).map((t) => t.name)).toEqual(['bare', 'rich', 't2']);
  });

  it('reads exactly maxListPages pages when the last has no cursor', async () => {
    const server = await pagingServer('pages:2', { maxListPages: 2 });
    expect((await server.listTools()).map((t) => t.name)).toEqual(['bare', 'rich']);
  });

  it('a server that keeps returning cursors fails past maxListPages, saying to raise it', async () => {
    const server = await pagingServer('endless', { maxListPages: 3 });
    await expect(server.listTools()).rejects.toThrow('MCP server "paging" listed more than 3 pages of tools (raise `maxListPages`).');
  });

  it('by default it stops after 64 pages', async () => {
    const server = await pagingServer('endless');
    expect(server.maxListPages).toBe(64);
    await expect(server.listTools()).rejects.toThrow('listed more than 64 pages of tools');
  });

  it('a server that repeats a cursor ends the listing with what came so far', async () => {
    const server = await pagingServer('repeat', { maxListPages: 10 });
    expect((await server.listTools()).map((t) => t.name)).toEqual(['t0', 't1']);
  });
});

describe('the answer to a call', () => {
  it('keeps structured content, isError and _meta beside the content blocks', async () => {
    const server = await pagingServer('pages:2');
    const content = await server.callTool('rich', null);
    expect([...content]).toEqual([{ type: 'text', text: 'partly failed' }]);
    expect(content.structuredContent).toEqual({ rows: 2 });
    expect(content.isError).toBe(true);
    expect(content._meta).toEqual({ trace: 'abc' });
  });
});

describe('connecting', () => {
  it('a second connect() while connected keeps the same session', async () => {
    const server = await pagingServer('pages:1');
    await server.connect();
    expect(server.connected).toBe(true);
    expect((await server.listTools()).map((t) => t.name)).toEqual(['bare']);
  });

  it('close() leaves it disconnected, and calls then name the server', async () => {
    const server = await pagingServer('pages:1');
    await server.close();
    expect(server.connected).toBe(false);
    await expect(server.listTools()).rejects.toThrow('MCP server "paging" is not connected');
  });
});
