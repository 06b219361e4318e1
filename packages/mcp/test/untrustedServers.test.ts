import { afterEach, describe, expect, it } from 'vitest';
import { Agent, Runner } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, isProcessAlive } from '@baton/testing';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { MCPServerSSE, MCPServerStdio, MCPServerStreamableHttp, type MCPServerOptions } from '../src/index.js';
import { recordingLogger } from './recordingLogger.js';
import { sseServer, streamableHttpServer, type Misbehaviour, type MisbehavingServer } from './misbehavingHttp.js';

// MCP servers are untrusted: one that never ends its session, dies mid-call or answers with a
// flood must not hold a run (or its memory) hostage.

const started: MisbehavingServer[] = [];
const clients: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function httpServer(misbehaviour: Misbehaviour = {}) {
  const server = await streamableHttpServer(misbehaviour);
  started.push(server);
  return server;
}

function client(server: MisbehavingServer, options: MCPServerOptions = {}) {
  const made = new MCPServerStreamableHttp({ name: 'untrusted', url: server.url, ...options });
  clients.push(made);
  return made;
}

async function elapsed<T>(work: Promise<T>): Promise<{ ms: number; outcome: PromiseSettledResult<T> }> {
  const start = Date.now();
  const [outcome] = await Promise.allSettled([work]);
  return { ms: Date.now() - start, outcome: outcome! };
}

describe('an HTTP MCP server that never opens the session', () => {
  it('a legacy SSE server that never names its message endpoint fails connect() after clientSessionTimeoutSeconds', async () => {
    const silent = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    started.push({ url: '', methods: [], close: () => new Promise<void>((resolve) => (silent.closeAllConnections(), silent.close(() => resolve()))) });
    const mcp = new MCPServerSSE({ name: 'silent', url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/sse`, clientSessionTimeoutSeconds: 0.5 });
    clients.push(mcp);
    const { ms, outcome } = await elapsed(mcp.connect());
    expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/MCP server "silent" failed to connect: Timed out after 500 ms waiting for the server to open the session/);
    expect(ms).toBeLessThan(3_000);
    expect(mcp.connected).toBe(false);
  });
});

describe('an HTTP MCP server that never answers the session-closing DELETE', () => {
  it('close() waits closeTimeoutMs for it, then cuts the connection', async () => {
    const server = await httpServer({ hangOnDelete: true });
    const mcp = client(server, { closeTimeoutMs: 300 });
    await mcp.connect();
    const { ms, outcome } = await elapsed(mcp.close());
    expect(outcome.status).toBe('fulfilled');
    expect(server.methods).toContain('DELETE');
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(2_000);
    expect(mcp.connected).toBe(false);
  });

  it('the log says which server was not waited for, and why', async () => {
    const logger = recordingLogger();
    const mcp = client(await httpServer({ hangOnDelete: true }), { closeTimeoutMs: 300, logger });
    await mcp.connect();
    await mcp.close();
    expect(logger.warnings()).toEqual([expect.stringMatching(/^MCP server "untrusted": Timed out after 300 ms waiting for the server to end the session\b.*closed anyway/)]);
  });

  it('the default bound is 5 s, and a well-behaved server is not waited for', async () => {
    expect(client(await httpServer()).closeTimeoutMs).toBe(5_000);
    const mcp = client(await httpServer());
    await mcp.connect();
    const { ms } = await elapsed(mcp.close());
    expect(ms).toBeLessThan(1_000);
  });

  it('a run that connected such a server still ends', async () => {
    const server = await httpServer({ hangOnDelete: true });
    const mcp = client(server, { closeTimeoutMs: 300 });
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const run = new Runner({ tracingDisabled: true }).run(new Agent({ name: 'A', model, mcpServers: [mcp] }), 'go');
    const { ms, outcome } = await elapsed(run);
    expect(outcome.status).toBe('fulfilled');
    expect((outcome as PromiseFulfilledResult<Awaited<typeof run>>).value.finalOutput).toBe('done');
    expect(server.methods).toContain('DELETE');
    expect(ms).toBeLessThan(5_000);
    expect(mcp.connected).toBe(false);
  });
});

describe('a stdio MCP server that will not exit', () => {
  it('close() waits closeTimeoutMs, then kills the process', async () => {
    const mcp = new MCPServerStdio({ name: 'stubborn', command: process.execPath, args: [join(import.meta.dirname, 'fixtures', 'stubbornServer.mjs')], closeTimeoutMs: 300 });
    await mcp.connect();
    const pid = mcp.pid!;
    const { ms } = await elapsed(mcp.close());
    expect(ms).toBeLessThan(1_500);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('the log says which server was cut off, and why', async () => {
    const logger = recordingLogger();
    const mcp = new MCPServerStdio({ name: 'stubborn', command: process.execPath, args: [join(import.meta.dirname, 'fixtures', 'stubbornServer.mjs')], closeTimeoutMs: 300, logger });
    await mcp.connect();
    await mcp.close();
    expect(logger.warnings()).toEqual([expect.stringMatching(/^MCP server "stubborn": Timed out after \d+ ms closing the connection\b.*abandoned/)]);
  });
});

describe('an HTTP MCP server whose connection dies mid-call', () => {
  it('fails the pending call at once with an error saying so, not after the request timeout', async () => {
    const mcp = client(await httpServer({ dropSlowCallAfterMs: 100 }));
    await mcp.connect();
    const { ms, outcome } = await elapsed(mcp.callTool('slow', {}));
    expect(outcome.status).toBe('rejected');
    expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/the connection to the server closed before it answered/);
    expect(ms).toBeLessThan(3_000);
  });

  it('answered with JSON bodies, the same', async () => {
    const mcp = client(await httpServer({ dropSlowCallAfterMs: 100, jsonResponses: true }));
    await mcp.connect();
    const { ms, outcome } = await elapsed(mcp.callTool('slow', {}));
    expect(outcome.status).toBe('rejected');
    expect(ms).toBeLessThan(3_000);
  });
});

describe('a legacy SSE MCP server whose event stream dies mid-call', () => {
  it('fails the pending call at once and leaves the server disconnected', async () => {
    const server = await sseServer({ dropSlowCallAfterMs: 100 });
    started.push(server);
    const mcp = new MCPServerSSE({ name: 'untrusted-sse', url: server.url });
    clients.push(mcp);
    await mcp.connect();
    const { ms, outcome } = await elapsed(mcp.callTool('slow', {}));
    expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/event stream (broke|closed)/);
    expect(ms).toBeLessThan(3_000);
    expect(mcp.connected).toBe(false);
  });

  it('the log says which server lost its connection, and why', async () => {
    const server = await sseServer({ dropSlowCallAfterMs: 100 });
    started.push(server);
    const logger = recordingLogger();
    const mcp = new MCPServerSSE({ name: 'untrusted-sse', url: server.url, logger });
    clients.push(mcp);
    await mcp.connect();
    await mcp.callTool('slow', {}).catch(() => undefined);
    expect(logger.warnings()).toEqual([expect.stringMatching(/^MCP server "untrusted-sse": the server's event stream (broke|closed).*; the connection is closed\.$/)]);
  });
});

describe('a Streamable HTTP MCP server that ends its standalone event stream', () => {
  it('keeps the session: the stream carries no call, and the MCP spec lets a server end it at any time', async () => {
    const server = await httpServer({ endGetStreamAfterMs: 50 });
    const mcp = client(server);
    await mcp.connect();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(server.methods).toContain('GET');
    expect(mcp.connected).toBe(true);
    await expect(mcp.callTool('echo', { text: 'still here' })).resolves.toEqual([{ type: 'text', text: 'echo: still here' }]);
  });
});

describe('an MCP server answering with a flood', () => {
  const tooLarge = /larger than maxResponseBytes \(100000 bytes\)/;

  it.each([
    ['event-stream', false],
    ['JSON', true],
  ])('over Streamable HTTP (%s answers): the call fails past maxResponseBytes and the session goes on', async (_label, jsonResponses) => {
    const mcp = client(await httpServer({ jsonResponses }), { maxResponseBytes: 100_000 });
    await mcp.connect();
    await expect(mcp.callTool('big', { bytes: 90_000 })).resolves.toHaveLength(1);
    await expect(mcp.callTool('big', { bytes: 200_000 })).rejects.toThrow(tooLarge);
    await expect(mcp.callTool('echo', { text: 'still here' })).resolves.toEqual([{ type: 'text', text: 'echo: still here' }]);
  });

  it('over the legacy SSE transport: the call fails and the session is closed', async () => {
    const server = await sseServer();
    started.push(server);
    const mcp = new MCPServerSSE({ name: 'untrusted-sse', url: server.url, maxResponseBytes: 100_000 });
    clients.push(mcp);
    await mcp.connect();
    await expect(mcp.callTool('big', { bytes: 1_000 })).resolves.toHaveLength(1);
    const { ms, outcome } = await elapsed(mcp.callTool('big', { bytes: 200_000 }));
    expect(String((outcome as PromiseRejectedResult).reason)).toMatch(tooLarge);
    expect(ms).toBeLessThan(3_000);
    expect(mcp.connected).toBe(false);
  });

  it('over stdio: the call fails past maxResponseBytes and the connection is closed', async () => {
    const mcp = new MCPServerStdio({ name: 'raw', command: process.execPath, args: [join(import.meta.dirname, 'fixtures', 'rawServer.mjs')], maxResponseBytes: 100_000 });
    clients.push(mcp);
    await mcp.connect();
    await expect(mcp.callTool('big', { bytes: 90_000 })).resolves.toHaveLength(1);
    await expect(mcp.callTool('big', { bytes: 200_000 })).rejects.toThrow(tooLarge);
    expect(mcp.connected).toBe(false);
  });

  it('an error answer is bounded too: its flood never reaches the error message', async () => {
    const flooding = createServer((_req, res) => void res.writeHead(500, { 'content-type': 'text/plain' }).end('x'.repeat(1_000_000)));
    await new Promise<void>((resolve) => flooding.listen(0, '127.0.0.1', resolve));
    started.push({ url: '', methods: [], close: () => new Promise<void>((resolve) => (flooding.closeAllConnections(), flooding.close(() => resolve()))) });
    const mcp = new MCPServerStreamableHttp({ name: 'flooding', url: `http://127.0.0.1:${(flooding.address() as AddressInfo).port}/mcp`, maxResponseBytes: 100_000 });
    clients.push(mcp);
    const { outcome } = await elapsed(mcp.connect());
    const message = String((outcome as PromiseRejectedResult).reason);
    expect(message).toMatch(/MCP server "flooding" failed to connect/);
    expect(message.length).toBeLessThan(10_000);
  });

  it('by default an answer past 32 MiB is refused', async () => {
    const mcp = client(await httpServer({ jsonResponses: true }));
    expect(mcp.maxResponseBytes).toBe(32 * 1024 * 1024);
    await mcp.connect();
    await expect(mcp.callTool('big', { bytes: 33 * 1024 * 1024 })).rejects.toThrow(/larger than maxResponseBytes \(33554432 bytes\)/);
  });

  it('maxResponseBytes: null lifts the limit; a bad value is a UserError', () => {
    expect(new MCPServerStreamableHttp({ url: 'http://localhost/mcp', maxResponseBytes: null }).maxResponseBytes).toBeNull();
    expect(() => new MCPServerStreamableHttp({ url: 'http://localhost/mcp', maxResponseBytes: 0 })).toThrow(/`maxResponseBytes` must be a positive integer/);
    expect(() => new MCPServerStreamableHttp({ url: 'http://localhost/mcp', closeTimeoutMs: -1 })).toThrow(/`closeTimeoutMs` must be a positive number/);
  });
});
