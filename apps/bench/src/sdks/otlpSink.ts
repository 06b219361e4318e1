import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { otlpTracingProcessor } from '@baton/tracing/opentelemetry';

/**
 * An OTLP/HTTP endpoint in this process that reads and discards what it receives, and Baton's OTLP
 * processor pointed at it. Its own (small) cost counts toward the measured CPU, as a collector on
 * the same machine would.
 */
export async function otlpSink() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  return { processor: otlpTracingProcessor({ url, serviceName: 'bench' }) };
}
