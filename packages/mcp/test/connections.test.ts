// The mcp README's connection promises, on a stdio server: `connect()` opens one session (again
// after `close()`), the client introduces itself as the reference's does, a listing reads at most
// `maxListPages` pages, a connection that dies mid-call fails that call at once saying why and
// leaves the server disconnected, and closing a well-behaved server lets it end on its own and
// leaves no timer behind (a finished connect/close must not keep the process alive).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCPServerStdio, connectMcpServers, type MCPServerOptions } from '../src/index.js';
import { recordingLogger } from './recordingLogger.js';
import { temporaryFolder } from './servers.js';

const fixture = join(import.meta.dirname, 'fixtures', 'pagingServer.mjs');
const opened: MCPServerStdio[] = [];
const folders: Array<{ remove(): void }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
  for (const folder of folders.splice(0)) folder.remove();
});

function paging(mode: string, options: Omit<MCPServerOptions, 'name'> & { env?: Record<string, string> } = {}): MCPServerStdio {
  const server = new MCPServerStdio({ name: 'paging', command: process.execPath, args: [fixture, mode], stderr: 'ignore', ...options });
  opened.push(server);
  return server;
}

const textOf = async (server: MCPServerStdio, tool: string) => ((await server.callTool(tool, {}))[0] as unknown as { text: string }).text;
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('connecting', () => {
  it('a second connect() while connected keeps the same process and session', async () => {
    const server = paging('counting');
    await server.connect();
    const pid = server.pid;
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_1']);
    await server.connect();
    expect(server.pid).toBe(pid);
    // The same process answers: it counts on from the first listing.
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_2']);
  });

  it('connect() after close() opens a new session on a new process', async () => {
    const server = paging('counting');
    await server.connect();
    const first = server.pid;
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_1']);
    await server.close();
    await server.connect();
    expect(server.connected).toBe(true);
    expect(server.pid).not.toBe(first);
    expect((await server.listTools()).map((t) => t.name)).toEqual(['listed_1']);
  });

  it('the client introduces itself with the server’s name and version 1.0.0 (as the reference does)', async () => {
    const server = paging('pages:1');
    await server.connect();
    expect(JSON.parse(await textOf(server, 'client'))).toMatchObject({ name: 'paging', version: '1.0.0' });
  });

  it('a failure to connect keeps the underlying error as its cause', async () => {
    const server = new MCPServerStdio({ name: 'ghost', command: join(import.meta.dirname, 'no-such-binary'), stderr: 'ignore' });
    opened.push(server);
    const error = await server.connect().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^MCP server "ghost" failed to connect: .*ENOENT/);
    expect(error?.cause).toBeInstanceOf(Error);
    expect((error?.cause as Error).message).toMatch(/ENOENT/);
  });

  it('with connectMcpServers({ connectTimeoutMs: null }) connecting waits as long as it takes', async () => {
    const server = paging('pages:1');
    const servers = await connectMcpServers([server], { connectTimeoutMs: null, closeTimeoutMs: null });
    expect(servers.active).toEqual([server]);
    expect(servers.failed).toEqual([]);
    await servers.close();
    expect(server.connected).toBe(false);
  });

  it('the debug log says when a server connected', async () => {
    const logger = recordingLogger();
    const server = paging('pages:1', { logger });
    await server.connect();
    expect(logger.lines).toContain('debug: Connected to MCP server: paging');
  });
});

describe('the debug log', () => {
  it('DEBUG naming the reference’s namespace for stdio servers shows the connection', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const previous = process.env.DEBUG;
    process.env.DEBUG = 'openai-agents:stdio-mcp-client';
    let lines: string[];
    try {
      await paging('pages:1').connect();
    } finally {
      lines = debug.mock.calls.map((call) => String(call[0]));
      if (previous === undefined) delete process.env.DEBUG;
      else process.env.DEBUG = previous;
      debug.mockRestore();
    }
    expect(lines).toContain('openai-agents:stdio-mcp-client Connected to MCP server: paging');
  });
});

describe('listing', () => {
  it('asks the server for at most maxListPages pages', async () => {
    const server = paging('endless', { maxListPages: 3 });
    await server.connect();
    const error = await server.listTools().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe('MCP server "paging" listed more than 3 pages of tools (raise `maxListPages`).');
    expect(error?.cause).toBeInstanceOf(Error);
    expect(await textOf(server, 'listings')).toBe('3');
  });
});

describe('the answer to a call', () => {
  it('a plain answer carries nothing beside its content blocks (as the reference: absent fields are not attached)', async () => {
    const server = paging('pages:1');
    await server.connect();
    const content = await server.callTool('echo', { q: 'x' });
    expect(content).toHaveLength(1);
    expect('structuredContent' in content).toBe(false);
    expect('isError' in content).toBe(false);
    expect('_meta' in content).toBe(false);
  });
});

describe('a connection that dies mid-call', () => {
  it('fails the call with the MCP SDK’s “connection closed” and leaves the server disconnected', async () => {
    const server = paging('pages:1');
    await server.connect();
    const error = await server.callTool('exit', {}).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/[Cc]onnection closed/);
    // Nothing went wrong on the wire before it closed, so no transport error is blamed.
    expect(error?.message).not.toMatch(/after an error/);
    expect(server.connected).toBe(false);
  });

  it('after the transport reported an error, the call’s error says so and names the server (the SDK’s error is the cause)', async () => {
    const server = paging('pages:1');
    await server.connect();
    const error = await server.callTool('garble', {}).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^MCP server "paging": the connection closed after an error: \S/);
    expect(error?.cause).toBeInstanceOf(Error);
    expect((error?.cause as Error).message).toMatch(/[Cc]onnection closed/);
    expect(server.connected).toBe(false);
  });
});

describe('a call pending when close() is called', () => {
  it('fails as closed by this side: an earlier transport error the session survived is not blamed', async () => {
    const server = paging('pages:1');
    await server.connect();
    expect(await textOf(server, 'noise')).toBe('ok');
    const pending = server.callTool('mute', {}).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    await server.close();
    const error = await pending;
    expect(error?.message).toMatch(/[Cc]onnection closed/);
    expect(error?.message).not.toMatch(/after an error/);
  });
});

describe('closing a well-behaved server', () => {
  it('lets the process end on its own within closeTimeoutMs: not killed, nothing logged', async () => {
    const folder = temporaryFolder();
    folders.push(folder);
    const mark = join(folder.path, 'ended');
    const logger = recordingLogger();
    const server = paging('pages:1', { logger, env: { PATH: process.env.PATH ?? '', EXIT_MARK: mark } });
    await server.connect();
    await server.close();
    expect(logger.warnings()).toEqual([]);
    expect(existsSync(mark) && readFileSync(mark, 'utf8')).toBe('ended on its own');
  });

  it('leaves no timer behind once connect() and close() are done', async () => {
    const before = timers();
    const server = paging('pages:1', { clientSessionTimeoutSeconds: 60, closeTimeoutMs: 60_000 });
    await server.connect();
    await server.listTools();
    await server.close();
    // Each bound (connecting, ending the session, closing) cleared its timer when it was met.
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
