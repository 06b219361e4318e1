// Connecting and closing are bounded by timers (`clientSessionTimeoutSeconds`, `closeTimeoutMs`):
// each timer is cleared once its operation is done, so a finished connect() / close() leaves
// nothing that would keep the process alive (a script that closes its servers can exit at once).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { MCPServerStdio } from '../src/index.js';

afterEach(() => vi.restoreAllMocks());

describe('the bounds of connect() and close()', () => {
  it('clear their timers when the operation is done', async () => {
    const started: unknown[] = [];
    const cleared = new Set<unknown>();
    const realSetTimeout = globalThis.setTimeout;
    const realClearTimeout = globalThis.clearTimeout;
    // Only this server's bounds are this long (61 s to connect, 62 s to close).
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
      const handle = realSetTimeout(fn, ms, ...rest);
      if ((ms ?? 0) > 60_000) started.push(handle);
      return handle;
    }) as typeof setTimeout);
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((handle?: Parameters<typeof clearTimeout>[0]) => {
      cleared.add(handle);
      return realClearTimeout(handle);
    }) as typeof clearTimeout);
    const server = new MCPServerStdio({
      name: 'paging',
      command: process.execPath,
      args: [join(import.meta.dirname, 'fixtures', 'pagingServer.mjs'), 'pages:1'],
      stderr: 'ignore',
      clientSessionTimeoutSeconds: 61,
      closeTimeoutMs: 62_000,
    });
    await server.connect();
    await server.close();
    // One bound to connect, two to close (the server's part, then the connection's), and the MCP
    // SDK's own timeout of the initialize request.
    expect(started.length).toBeGreaterThanOrEqual(3);
    expect(started.filter((handle) => !cleared.has(handle))).toEqual([]);
  });
});
