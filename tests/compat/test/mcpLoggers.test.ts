import { describe, expect, it } from 'vitest';
import { onBoth, type Sdk } from './sdks.js';

// `DEBUG=<namespace>` turns on an MCP server's debug log (its connecting, listing, calls): the
// namespace of a server's default logger is what a user names there, so it must be the reference's,
// transport by transport. Constructing a server starts nothing.

const make: Record<string, (sdk: Sdk) => unknown> = {
  stdio: (sdk) => new sdk.MCPServerStdio({ command: process.execPath, args: ['server.js'] }),
  'streamable HTTP': (sdk) => new sdk.MCPServerStreamableHttp({ url: 'http://127.0.0.1:9/mcp' }),
  SSE: (sdk) => new sdk.MCPServerSSE({ url: 'http://127.0.0.1:9/sse' }),
};

describe('an MCP server’s default logger', () => {
  it.each(Object.keys(make))('%s: the namespace is the reference’s', async (kind) => {
    const { reference, baton } = await onBoth(async ({ sdk }) => (make[kind]!(sdk) as { logger: { namespace: string } }).logger.namespace);
    expect(reference).toMatch(/^openai-agents:/);
    expect(baton).toBe(reference);
  });
});
