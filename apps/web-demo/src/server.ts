import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, type StreamedRunResult } from '@baton/core';
import { SSE_HEADERS, pipeToNodeResponse } from '@baton/streaming';
import { createDemoAgent } from './agents.js';
import { hostPort, requestGuard } from './requestGuard.js';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
/** The decoder, built by @baton/streaming as one self-contained browser module. */
const clientBundle = createRequire(import.meta.url).resolve('@baton/streaming/browser');

const STATIC: Record<string, { file: string; type: string }> = {
  '/': { file: join(publicDir, 'index.html'), type: 'text/html; charset=utf-8' },
  '/app.js': { file: join(publicDir, 'app.js'), type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: join(publicDir, 'style.css'), type: 'text/css; charset=utf-8' },
  '/vendor/baton-streaming-client.js': { file: clientBundle, type: 'text/javascript; charset=utf-8' },
};

export interface DemoServerOptions {
  /** Default pause between streamed words / progress steps (a request may ask for another with `?delay=`). */
  delayMs?: number;
  /** Called with every run the server starts (tests watch them). */
  onRun?: (result: StreamedRunResult<unknown, any>) => void;
  /**
   * More names the server answers to, as `host:port` (behind a proxy: `demo.example.com:443`).
   * Always allowed: the address it listens on, `localhost`, `127.0.0.1` and `[::1]` with its port.
   * A request for another `Host`, or from a page of another origin, is refused (403).
   */
  allowedHosts?: readonly string[];
  /** Where failures are reported (the client only hears "Internal server error"). Default `console.error`. */
  onError?: (error: unknown) => void;
}

export interface DemoServer {
  readonly server: Server;
  /** Starts listening (port 0: any free port); resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

export function createDemoServer(options: DemoServerOptions = {}): DemoServer {
  let listenHost = '127.0.0.1';
  const extraHosts = (options.allowedHosts ?? []).map((name) => hostPort(`http://${name}`));
  const guard = requestGuard(() => {
    const address = server.address() as AddressInfo | null;
    const port = address?.port ?? 0;
    const names = [listenHost, 'localhost', '127.0.0.1', '[::1]'].map((name) => hostPort(`http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`));
    return new Set([...names, ...extraHosts].filter((name) => name !== ''));
  });
  const report = options.onError ?? ((error: unknown) => console.error('web demo:', error));
  const server = createServer((req, res) => {
    const refused = guard.problem(req);
    if (refused) {
      report(new Error(`refused a request: ${refused}`));
      return plain(res, 403, 'Forbidden');
    }
    handle(req, res, options).catch((error: unknown) => {
      // The error's text stays on the server: it may say more than a browser should know.
      report(error);
      if (!res.headersSent) return plain(res, 500, 'Internal server error');
      res.end();
    });
  });
  return {
    server,
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        listenHost = host;
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          resolve(`http://${host}:${address.port}`);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, options: DemoServerOptions): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed');

  const asset = STATIC[url.pathname];
  if (asset) {
    const body = await readFile(asset.file);
    res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' });
    res.end(body);
    return;
  }

  if (url.pathname === '/api/run') {
    const delayMs = parseDelay(url.searchParams.get('delay'), options.delayMs ?? 60);
    if (delayMs === undefined) return plain(res, 400, '`delay` must be an integer from 0 to 2000');
    const input = (url.searchParams.get('input') ?? '').slice(0, 500) || 'Plan a trip to Lisbon';
    const result = await run(createDemoAgent({ delayMs }), input, { stream: true });
    options.onRun?.(result);
    // The client closing the page (or pressing Stop) closes the connection: that cancels the run.
    // The page types the answer as it streams, so it gets text deltas (and no other raw model
    // event); errors reach it as a generic message (the transport's defaults).
    await pipeToNodeResponse(result, res, { rawModelEvents: 'text' });
    return;
  }

  if (url.pathname === '/api/broken') {
    // A stream cut off in the middle of an event, as a dying proxy would leave it: the page shows
    // the typed error instead of half an event.
    res.writeHead(200, SSE_HEADERS);
    res.write('id: 1\ndata: {"event_type":"notify_stream_event","type":"notify_stream_event","data":{"pct":50,"label":"Half way"},"toolName":"analyze_weather","toolCallId":"call_broken","tag":"progress"}\n\n');
    res.end('id: 2\ndata: {"event_type":"notify_stream_event","type":"notify_str');
    return;
  }

  plain(res, 404, 'Not found');
}

function parseDelay(value: string | null, fallback: number): number | undefined {
  if (value === null) return fallback;
  if (!/^\d{1,4}$/.test(value)) return undefined;
  const n = Number(value);
  return n <= 2000 ? n : undefined;
}

function plain(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(message);
}
