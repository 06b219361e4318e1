import { join } from 'node:path';
import { MCPServerStdio } from '@baton/agents';
import { FakeOpenAIServer, fakeToolCalls, type FakeTurn } from '@baton/testing';
import type { SdkUnderTest } from './sdks.js';

// An MCP server that checks its arguments (as SDK servers do), behind the same agent on both SDKs
// (fixtures/mcp/strictArgumentsServer.mjs). Both SDKs get a Baton `MCPServerStdio` (the
// reference's `MCPServer` interface), as in mcp.test.ts.

const fixture = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'strictArgumentsServer.mjs');
const opened: MCPServerStdio[] = [];
/** Closes the servers the programs opened (call in `afterEach`). */
export async function closeServers(): Promise<void> {
  await Promise.all(opened.splice(0).map((server) => server.close()));
}

export type ServerOptions = { errorFunction?: (args: { error: unknown }) => string };

async function server(options: ServerOptions = {}) {
  const made = new MCPServerStdio({ name: 'strict-arguments', command: process.execPath, args: [fixture], stderr: 'ignore', ...options });
  opened.push(made);
  await made.connect();
  return made;
}

export async function bodies(under: SdkUnderTest, turns: FakeTurn[], options: ServerOptions & { convertSchemasToStrict?: boolean } = {}) {
  const fake = await FakeOpenAIServer.start({ turns });
  try {
    const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: fake.baseURL, useResponses: true });
    const runner = new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
    const { convertSchemasToStrict, ...serverOptions } = options;
    const agent = new under.sdk.Agent({
      name: 'Helper',
      instructions: 'Use the tools.',
      mcpServers: [(await server(serverOptions)) as never],
      ...(convertSchemasToStrict !== undefined ? { mcpConfig: { convertSchemasToStrict } } : {}),
    });
    const result = await runner.run(agent, 'go');
    return { finalOutput: result.finalOutput, requests: fake.requests.map((r) => r.body as { tools?: unknown[]; input: unknown[] }) };
  } finally {
    await fake.close();
  }
}

export const calls = (...list: Array<[string, Record<string, unknown>]>) =>
  fakeToolCalls(list.map(([name, args], i) => ({ name, arguments: args, callId: `call_${i}` })));

/** The text of each tool result the last request sent the model. */
export function outputs(requests: Array<{ input: unknown[] }>): string[] {
  return requests
    .at(-1)!
    .input.filter((item): item is { type: string; output: unknown } => (item as { type?: string }).type === 'function_call_output')
    .map((item) => (typeof item.output === 'string' ? item.output : (item.output as Array<{ text: string }>).map((part) => part.text).join('')));
}
