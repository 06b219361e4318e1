import { afterEach, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { MCPServerStdio } from '@baton/agents';
import { FakeOpenAIServer, fakeText, fakeToolCalls, type FakeTurn } from '@baton/testing';
import { onBoth, type SdkUnderTest } from './sdks.js';

// The same agent with the same MCP server (the registry's "everything" server over stdio, one
// process per SDK) on both SDKs: the tools offered and the tool results sent to OpenAI must be the
// reference's, request for request. Both SDKs get a Baton `MCPServerStdio`: it is the reference's
// `MCPServer` interface, so the reference lists and calls through it exactly as through its own.

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const opened: MCPServerStdio[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

async function server(options: { useStructuredContent?: boolean; toolFilter?: { allowedToolNames: string[] } } = {}) {
  const made = new MCPServerStdio({ name: 'everything', command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore', ...options });
  opened.push(made);
  await made.connect();
  return made;
}

async function bodies(under: SdkUnderTest, turns: FakeTurn[], options: Parameters<typeof server>[0] & { convertSchemasToStrict?: boolean } = {}) {
  const fake = await FakeOpenAIServer.start({ turns });
  try {
    const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: fake.baseURL, useResponses: true });
    const runner = new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
    const { convertSchemasToStrict, ...serverOptions } = options;
    const agent = new under.sdk.Agent({
      name: 'Helper',
      instructions: 'Use the tools.',
      mcpServers: [(await server(serverOptions)) as never],
      ...(convertSchemasToStrict ? { mcpConfig: { convertSchemasToStrict } } : {}),
    });
    const result = await runner.run(agent, 'go');
    return { finalOutput: result.finalOutput, requests: fake.requests.map((r) => r.body) };
  } finally {
    await fake.close();
  }
}

const calls = (...list: Array<[string, Record<string, unknown>]>) =>
  fakeToolCalls(list.map(([name, args], i) => ({ name, arguments: args, callId: `call_${i}` })));

describe('MCP tools on the wire (same on both SDKs)', () => {
  it('the tools offered: names, descriptions and schemas', async () => {
    const both = await onBoth((under) => bodies(under, [fakeText('nothing to do')]));
    expect(both.baton).toEqual(both.reference);
    expect((both.baton.requests[0] as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain('get_sum');
  });

  it('strict schemas with convertSchemasToStrict, on a filtered list', async () => {
    const options = { convertSchemasToStrict: true, toolFilter: { allowedToolNames: ['echo', 'get-sum', 'get-env'] } };
    const both = await onBoth((under) => bodies(under, [fakeText('ok')], options));
    expect(both.baton).toEqual(both.reference);
  });

  it('text, image, structured and resource-link results', async () => {
    const turns = [
      calls(['echo', { message: 'hi' }], ['get_tiny_image', {}], ['get_structured_content', { location: 'Chicago' }], ['get_resource_links', { count: 2 }]),
      fakeText('done'),
    ];
    const both = await onBoth((under) => bodies(under, turns));
    expect(both.baton).toEqual(both.reference);
  });

  it('structured content as JSON with useStructuredContent', async () => {
    const turns = [calls(['get_structured_content', { location: 'New York' }], ['echo', { message: 'no structure' }]), fakeText('done')];
    const both = await onBoth((under) => bodies(under, turns, { useStructuredContent: true }));
    expect(both.baton).toEqual(both.reference);
  });
});
