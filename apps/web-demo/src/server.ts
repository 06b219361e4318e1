import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, type StreamedRunResult } from '@baton/core';
import { SSE_HEADERS, pipeToNodeResponse } from '@baton/streaming';
import { createDemoAgent } from './agents.js';

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
}

export interface DemoServer {
  readonly server: Server;
  /** Starts listening (port 0: any free port); resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

export function createDemoServer(options: DemoServerOptions = {}): DemoServer {
  const server = createServer((req, res) => {
    handle(req, res, options).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(error instanceof Error ? error.message : String(error));
    });
  });
  return {
    server,
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
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
    await pipeToNodeResponse(result, res);
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
