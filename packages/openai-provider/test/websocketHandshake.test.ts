import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isOpenAIProviderError } from '../src/index.js';
import { ResponsesWebSocketConnection } from '../src/internal/websocket/responsesWebSocketConnection.js';

// A handshake cut short (aborted, timed out) while the server has not answered yet: the call fails
// with its own error, and the socket's own "closed before the connection was established" error is
// not left unhandled.
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A TCP server that takes the connection and never answers the upgrade. */
async function silentServer(): Promise<string> {
  const server = createServer((socket) => void sockets.push(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/responses`;
}

describe('opening a Responses WebSocket', () => {
  it('ends an aborted handshake as an aborted error, with nothing left unhandled', async () => {
    const url = await silentServer();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await ResponsesWebSocketConnection.connect(url, {}, controller.signal, undefined).catch((caught: unknown) => caught);
    expect(isOpenAIProviderError(error, 'aborted')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('ends a handshake that takes too long as a timeout', async () => {
    const url = await silentServer();
    const error = await ResponsesWebSocketConnection.connect(url, {}, undefined, 50).catch((caught: unknown) => caught);
    expect(isOpenAIProviderError(error, 'timeout')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
