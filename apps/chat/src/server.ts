import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { RunState, type Runner, type StreamedRunResult } from '@baton/core';
import { SqliteRunStateStore } from '@baton/hitl-state';
import { aiSdkUiMessagesFromItems, createAiSdkChatRoute } from '@baton/ai-sdk-provider/ui';
import { createSupportAgent, type SupportLedger } from './agent.js';
import { bundleClient, type ClientBundle } from './bundle.js';
import { chatSession } from './history.js';
import { RequestTooLarge, sendWebResponse, toWebRequest } from './nodeResponse.js';
import { hostPort, requestGuard } from './requestGuard.js';

export interface ChatServerOptions {
  /** Runs the agent (its model provider decides where the model is: the fake server, or OpenAI). */
  readonly runner: Runner;
  /** The agent's model name. */
  readonly model: string;
  /** The SQLite file with the chats' paused runs and conversations (`:memory:` for none). */
  readonly dbPath: string;
  /** Pause between research steps, in ms. Default 700. */
  readonly researchStepMs?: number;
  /** Who approves, recorded with each decision. Default `'demo-user'` (a real app: the signed-in user). */
  readonly userName?: string;
  /** A browser that goes away: `'cancel'` the run (default) or let it `'continue'`. */
  readonly onDisconnect?: 'cancel' | 'continue';
  /** More `host:port` names the server answers to (behind a proxy). */
  readonly allowedHosts?: readonly string[];
  /** Every run started, for tests. */
  readonly onRun?: (result: StreamedRunResult<unknown, any>) => void;
  /** Server-side failures (the client gets `Internal server error`). Default `console.error`. */
  readonly onError?: (error: unknown) => void;
}

export interface ChatServer {
  /** Listens (default 127.0.0.1, a free port) and resolves with the page's URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  readonly ledger: SupportLedger;
  readonly store: SqliteRunStateStore;
}

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Baton chat</title>
    <link rel="stylesheet" href="/app.css" />
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/app.js"></script>
  </body>
</html>
`;

/**
 * The chat app's server (plain `node:http`): the page and its bundle, `POST /api/chat` (the
 * `useChat` route: `createAiSdkChatRoute` over the support agent), and `GET /api/chats/<id>` (the
 * conversation from the database, for a page reload). Paused runs are kept in a
 * `SqliteRunStateStore` keyed by the chat id, conversations in `@baton/sessions` SQLite sessions,
 * both in one database file.
 */
export async function createChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const db = new Database(options.dbPath);
  db.pragma('journal_mode = WAL');
  const store = new SqliteRunStateStore(db);
  await store.init();
  const ledger: SupportLedger = { refunds: [] };
  const agent = createSupportAgent({ model: options.model, researchStepMs: options.researchStepMs ?? 700, ledger });
  const userName = options.userName ?? 'demo-user';
  const chat = createAiSdkChatRoute({
    store,
    loadState: (text) => RunState.fromString(agent, text),
    run: async (input, { chatId }) => {
      // A small event buffer: a slow browser holds the run back after a few events.
      const result = await options.runner.run(agent, input, { stream: true, session: chatSession(db, chatId), streamBufferSize: 16 });
      options.onRun?.(result);
      return result;
    },
    decidedBy: () => userName,
    ...(options.onDisconnect === undefined ? {} : { onDisconnect: options.onDisconnect }),
    onError: (error) => onError(error),
  });
  const bundle: ClientBundle = await bundleClient();

  let origin = '';
  const extraHosts = (options.allowedHosts ?? []).map((name) => hostPort(`http://${name}`));
  const guard = requestGuard(() => {
    const port = new URL(origin).port;
    return new Set([hostPort(origin), `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, ...extraHosts]);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = guard.problem(req);
    if (refused !== undefined) return text(res, 403, `Forbidden: ${refused}.`);
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'GET' && url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', INDEX_HTML);
    if (req.method === 'GET' && url.pathname === '/app.js') return send(res, 200, 'text/javascript; charset=utf-8', bundle.js);
    if (req.method === 'GET' && url.pathname === '/app.css') return send(res, 200, 'text/css; charset=utf-8', bundle.css);
    if (url.pathname === '/api/chat') {
      if (req.method !== 'POST') return text(res, 405, 'POST only.');
      return sendWebResponse(res, await chat.POST(await toWebRequest(req, origin)));
    }
    const history = /^\/api\/chats\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && history) {
      const chatId = decodeURIComponent(history[1]!);
      const messages = aiSdkUiMessagesFromItems(await chatSession(db, chatId).getItems(), { pendingApprovals: await chat.pendingApprovals(chatId) });
      return send(res, 200, 'application/json', JSON.stringify({ messages }));
    }
    return text(res, 404, 'Not found.');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof RequestTooLarge) return text(res, 413, error.message);
      onError(error);
      if (!res.headersSent) text(res, 500, 'Internal server error');
      else res.destroy();
    });
  });

  return {
    ledger,
    store,
    async listen(port = 0, host = '127.0.0.1') {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      const address = server.address() as AddressInfo;
      origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
      return `${origin}/`;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
    },
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(body);
}

function text(res: ServerResponse, status: number, body: string): void {
  send(res, status, 'text/plain; charset=utf-8', body);
}
