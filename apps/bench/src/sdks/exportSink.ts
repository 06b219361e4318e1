import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP endpoint in this process that reads and discards what it receives: where the traced
 * scenarios export to (Baton over OTLP/HTTP, the reference to its traces ingest format). Its own
 * small cost counts toward the measured CPU of both, as a collector on the same machine would.
 */
export async function exportSink(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
