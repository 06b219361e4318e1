import { afterEach, describe, expect, it } from 'vitest';
import { Agent, Runner } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, resultText } from '@baton/testing';
import { MCPServerStreamableHttp } from '../src/index.js';
import { streamableHttpServer, type MisbehavingServer } from './misbehavingHttp.js';

// The MCP SDK's own server validates arguments: `greet`'s optional `title` must be a string when
// given, so a `null` reaching it is an error. A strict model sends null for "not given".

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function greetWith(args: Record<string, unknown>, convertSchemasToStrict: boolean) {
  server = await streamableHttpServer();
  const mcp = new MCPServerStreamableHttp({ name: 'greeter', url: server.url });
  const model = new ScriptedModel([[functionCall('greet', args, { callId: 'c1' })], [assistantMessage('done')]]);
  const agent = new Agent({ name: 'A', model, mcpServers: [mcp], mcpConfig: { convertSchemasToStrict } });
  await new Runner({ tracingDisabled: true }).run(agent, 'go');
  const greet = model.firstCall!.request.tools.find((t) => t.name === 'greet') as { parameters: { properties: Record<string, unknown> }; strict: boolean };
  return { text: resultText(model.lastCall, 'c1'), greet };
}

describe('MCP tools with convertSchemasToStrict', () => {
  it('offer optional arguments as nullable, keeping their description', async () => {
    const { greet } = await greetWith({ name: 'Ada' }, true);
    expect(greet.strict).toBe(true);
    expect(greet.parameters.properties.title).toEqual({ description: 'Their title, if any', anyOf: [{ type: 'string', description: 'Their title, if any' }, { type: 'null' }] });
  });

  it('drop the null a strict model sends for an optional argument before the server sees it', async () => {
    expect((await greetWith({ name: 'Ada', title: null }, true)).text).toBe('Hello, Ada!');
    expect((await greetWith({ name: 'Grace', title: 'Dr' }, true)).text).toBe('Hello, Dr Grace!');
  });
});
