// The options a server is constructed with take effect in a run (the mcp README's list, the
// reference's names): a static `toolFilter` decides the tools the model is offered,
// `toolMetaResolver` the `_meta` sent with a call, and the server's tool guardrails run on each
// call of its tools (input before the call reaches the server, output before the model sees it).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Agent, Runner, type ToolInputGuardrail, type ToolOutputGuardrail } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, resultText } from '@baton/testing';
import { MCPServerStdio, type MCPServerOptions } from '../src/index.js';

const runner = new Runner({ tracingDisabled: true });

/** The hand-written server: `meta` answers with the `_meta` and arguments it received. */
const raw = (options: Omit<MCPServerOptions, 'name'>) =>
  new MCPServerStdio({ name: 'raw', command: process.execPath, args: [join(import.meta.dirname, 'fixtures', 'rawServer.mjs')], ...options });

async function callMeta(server: MCPServerStdio, context?: unknown) {
  const model = new ScriptedModel([[functionCall('meta', { q: 'x' }, { callId: 'c1' })], [assistantMessage('ok')]]);
  await runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'go', context === undefined ? {} : { context });
  return { model, text: resultText(model.lastCall, 'c1') };
}

describe('a server’s options in a run', () => {
  it('toolFilter: the model is offered only the allowed tools', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await runner.run(new Agent({ name: 'A', model, mcpServers: [raw({ toolFilter: { allowedToolNames: ['meta'] } })] }), 'go');
    expect(model.calls[0]!.request.tools.map((t) => t.name)).toEqual(['meta']);
  });

  it('toolMetaResolver: its answer is the call’s `_meta`', async () => {
    const server = raw({ toolMetaResolver: ({ runContext }) => ({ tenant: (runContext.context as { tenant: string }).tenant }) });
    const { text } = await callMeta(server, { tenant: 'acme' });
    expect(JSON.parse(text)).toEqual({ meta: { tenant: 'acme' }, arguments: { q: 'x' } });
  });

  it('toolInputGuardrails: a rejection answers the model instead of the server', async () => {
    const stop: ToolInputGuardrail = {
      name: 'stop',
      run: async () => ({ tripwireTriggered: false, behavior: { type: 'rejectContent', message: 'Not this one.' } }),
    } as never;
    const { text } = await callMeta(raw({ toolInputGuardrails: [stop] }));
    expect(text).toBe('Not this one.');
  });

  it('toolOutputGuardrails: a rejection replaces what the server answered', async () => {
    const hide: ToolOutputGuardrail = {
      name: 'hide',
      run: async () => ({ tripwireTriggered: false, behavior: { type: 'rejectContent', message: 'Withheld.' } }),
    } as never;
    const { text } = await callMeta(raw({ toolOutputGuardrails: [hide] }));
    expect(text).toBe('Withheld.');
  });
});
