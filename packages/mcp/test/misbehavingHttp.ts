import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';

/** How the server misbehaves; every flag off is a well-behaved server. */
export interface Misbehaviour {
  /** Never answer the session-closing `DELETE` (the socket stays open). */
  hangOnDelete?: boolean;
  /** Destroy the socket of a `tools/call` of `slow` this long after it arrives. */
  dropSlowCallAfterMs?: number;
  /** Answer POSTs with JSON bodies rather than event streams. */
  jsonResponses?: boolean;
  /** End the session's first standalone `GET` event stream this long after it opened (the spec lets a server do so). */
  endGetStreamAfterMs?: number;
}

export interface MisbehavingServer {
  url: string;
  /** HTTP methods received, in order. */
  readonly methods: string[];
  close(): Promise<void>;
}

/**
 * The MCP SDK's own server, reached over a real local HTTP server that misbehaves on demand. Its
 * tools: `echo({ text })`, `slow()` (answers after 30 s), `big({ bytes })` (a text of that many
 * bytes) and `greet({ name, title? })` (rejects any argument that is not a string).
 */
function mcpServer(): McpServer {
  const server = new McpServer({ name: 'misbehaving', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes the text.', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool('slow', { description: 'Takes 30 s.' }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 30_000).unref());
    return { content: [{ type: 'text', text: 'finally' }] };
  });
  server.registerTool('big', { description: 'A long text.', inputSchema: { bytes: z.number() } }, async ({ bytes }) => ({
    content: [{ type: 'text', text: 'x'.repeat(bytes) }],
  }));
  server.registerTool(
    'greet',
    { description: 'Greets someone.', inputSchema: { name: z.string().describe('Who to greet'), title: z.string().optional().describe('Their title, if any') } },
    async ({ name, title }) => ({ content: [{ type: 'text', text: `Hello, ${title ? `${title} ` : ''}${name}!` }] }),
  );
  return server;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ http: Server; origin: string }> {
  const http = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { http, origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

function closer(http: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
}

/** A Streamable HTTP MCP server at `/mcp`, one session. */
export async function streamableHttpServer(misbehaviour: Misbehaviour = {}): Promise<MisbehavingServer> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: misbehaviour.jsonResponses ?? false });
  await mcpServer().connect(transport);
  const methods: string[] = [];
  const { http, origin } = await listen(async (req, res) => {
    methods.push(req.method ?? '');
    if (req.method === 'DELETE' && misbehaviour.hangOnDelete) return; // never answered
    if (req.method === 'GET' && misbehaviour.endGetStreamAfterMs !== undefined && !methods.slice(0, -1).includes('GET')) {
      setTimeout(() => res.end(), misbehaviour.endGetStreamAfterMs);
    }
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const call = body as { method?: string; params?: { name?: string } } | undefined;
    if (misbehaviour.dropSlowCallAfterMs !== undefined && call?.method === 'tools/call' && call.params?.name === 'slow') {
      setTimeout(() => req.socket.destroy(), misbehaviour.dropSlowCallAfterMs);
    }
    await transport.handleRequest(req, res, body);
  });
  return { url: `${origin}/mcp`, methods, close: closer(http) };
}

/**
 * A legacy HTTP+SSE MCP server: the event stream at `/sse`, messages posted to `/messages`
 * (`dropSlowCallAfterMs` destroys the event stream's socket, which carries every answer).
 */
export async function sseServer(misbehaviour: Pick<Misbehaviour, 'dropSlowCallAfterMs'> = {}): Promise<MisbehavingServer> {
  const transports = new Map<string, SSEServerTransport>();
  const streams = new Map<string, ServerResponse>();
  const methods: string[] = [];
  const { http, origin } = await listen(async (req, res) => {
    methods.push(req.method ?? '');
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      streams.set(transport.sessionId, res);
      await mcpServer().connect(transport);
      return;
    }
    const sessionId = url.searchParams.get('sessionId') ?? '';
    const transport = transports.get(sessionId);
    if (!transport) return void res.writeHead(404).end();
    const body = await readJson(req);
    const call = body as { method?: string; params?: { name?: string } } | undefined;
    if (misbehaviour.dropSlowCallAfterMs !== undefined && call?.method === 'tools/call' && call.params?.name === 'slow') {
      setTimeout(() => streams.get(sessionId)?.socket?.destroy(), misbehaviour.dropSlowCallAfterMs);
    }
    await transport.handlePostMessage(req, res, body);
  });
  return { url: `${origin}/sse`, methods, close: closer(http) };
}
