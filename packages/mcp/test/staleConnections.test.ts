import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MCPServerStreamableHttp } from '../src/index.js';

// A server object reconnected after close() (the mcp README: connect yourself, `connect()` …
// `close()`, as on the reference) serves the new session only: what the closed connection still
// reports while its goodbye is pending (clientServer.ts: a transport's reports are "ignored once
// that connection is gone"), and a listing it still answers, do not touch the new session.

/**
 * A Streamable HTTP server at `/mcp` opening one MCP session per `initialize`; session n offers the
 * tool `tool_n`. On demand it holds the first session's `tools/list` and every session-closing
 * `DELETE` (a slow goodbye), and sends a notification on a session's standalone event stream.
 */
async function sessionsServer() {
  const sessions: Array<{ id: string; transport: StreamableHTTPServerTransport }> = [];
  let holdFirstListing = false;
  let listingArrived!: () => void;
  const listingHeld = new Promise<void>((resolve) => (listingArrived = resolve));
  let releaseListing!: () => void;
  const listingReleased = new Promise<void>((resolve) => (releaseListing = resolve));
  let holdDeletes = false;
  const heldDeletes: ServerResponse[] = [];
  const readJson = async (req: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  };
  const http = createServer(async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    if (req.method === 'DELETE' && holdDeletes) return void heldDeletes.push(res);
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    let transport = sessions.find((s) => s.id === sessionId)?.transport;
    if (!transport) {
      const index = sessions.length;
      const made: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.push({ id, transport: made }),
      });
      const mcp = new McpServer({ name: 'sessions', version: '1.0.0' });
      mcp.registerTool(`tool_${index}`, { description: `Session ${index}'s tool.` }, async () => ({ content: [{ type: 'text', text: `${index}` }] }));
      await mcp.connect(made);
      transport = made;
    }
    if (holdFirstListing && sessionId === sessions[0]?.id && (body as { method?: string } | undefined)?.method === 'tools/list') {
      listingArrived();
      await listingReleased;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    sessions,
    holdFirstListing: () => void (holdFirstListing = true),
    listingHeld,
    releaseListing: () => releaseListing(),
    holdDeletes: () => void (holdDeletes = true),
    releaseDeletes: () => {
      holdDeletes = false;
      for (const res of heldDeletes.splice(0)) res.writeHead(200).end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

describe('a server object reconnected while its closed connection says goodbye', () => {
  it("keeps its new session: the old connection's listing is not cached for it, nor does the old event stream's loss close it", async () => {
    const server = await sessionsServer();
    cleanups.push(server.close);
    const mcp = new MCPServerStreamableHttp({ name: 'restarted', url: server.url, cacheToolsList: true, maxResponseBytes: 100_000 });
    cleanups.push(() => mcp.close());
    cleanups.push(async () => server.releaseDeletes());

    await mcp.connect();
    server.holdFirstListing();
    const oldListing = mcp.listTools();
    await server.listingHeld;
    server.holdDeletes();
    const closing = mcp.close();
    await until(() => !mcp.connected);
    await mcp.connect();
    expect(server.sessions).toHaveLength(2);

    // The closed connection is still open while its DELETE is unanswered: its listing comes back,
    // then its standalone event stream carries an event past maxResponseBytes.
    server.releaseListing();
    expect((await oldListing).map((t) => t.name)).toEqual(['tool_0']);
    await server.sessions[0]!.transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(200_000) } });
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(mcp.connected).toBe(true);
    expect((await mcp.listTools()).map((t) => t.name)).toEqual(['tool_1']);
    server.releaseDeletes();
    await closing;
  });
});
