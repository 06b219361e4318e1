// The data of a span whose work failed part-way: only what the reference had set by then. The
// reference makes a handoff span with its `from_agent` and sets `to_agent` once the handoff's
// callback returned the next agent (agents-core `runner/toolExecution.js`, executeHandoffCalls); it
// makes an MCP listing span with its `server` and sets `result` once the tools are listed and
// filtered (`mcp.js`). A callback or a server that fails leaves the field off; the span carries the
// error instead (generic without sensitive data, per the tracing README).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Handoff, Runner } from '@baton/core';
import type { MCPServer } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
import { recordingProcessor } from './recording.js';

let recorder = recordingProcessor();
beforeEach(() => {
  recorder = recordingProcessor();
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor]);
});
afterEach(() => setTraceProcessors([]));

async function endedSpan(type: string) {
  await new Promise((resolve) => setTimeout(resolve, 20));
  return recorder.ended.find((span) => span.json.span_data.type === type)!.json;
}

describe('a handoff whose callback fails', () => {
  it('its span has the agent it came from, no agent it went to, and the error', async () => {
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([[assistantMessage('never')]]) });
    const refusing = new Handoff(billing, () => Promise.reject(new Error('billing desk closed')));
    const model = new ScriptedModel([[functionCall(refusing.toolName, {}, { callId: 'h1' })]]);
    const triage = new Agent({ name: 'Triage', model, handoffs: [refusing] });
    await expect(new Runner({ traceIncludeSensitiveData: false }).run(triage, 'refund please')).rejects.toThrow('billing desk closed');
    const span = await endedSpan('handoff');
    expect(span.span_data).toStrictEqual({ type: 'handoff', from_agent: 'Triage' });
    expect(span.error).toEqual({ message: 'Error running handoff', data: { error: 'Error' } });
  });

  it('one that succeeds names both agents', async () => {
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([[assistantMessage('refunded')]]) });
    const model = new ScriptedModel([[functionCall('transfer_to_Billing', {}, { callId: 'h1' })]]);
    const result = await new Runner().run(new Agent({ name: 'Triage', model, handoffs: [billing] }), 'refund please');
    expect(result.finalOutput).toBe('refunded');
    expect((await endedSpan('handoff')).span_data).toStrictEqual({ type: 'handoff', from_agent: 'Triage', to_agent: 'Billing' });
  });
});

describe('an MCP server that cannot list its tools', () => {
  it('its listing span has the server, no result, and the error', async () => {
    const server: MCPServer = {
      name: 'files',
      cacheToolsList: false,
      connect: async () => {},
      close: async () => {},
      listTools: async () => {
        throw new Error('files server gone');
      },
      callTool: async () => [],
      invalidateToolsCache: async () => {},
    };
    const agent = new Agent({ name: 'Archivist', model: new ScriptedModel([[assistantMessage('never')]]), mcpServers: [server] });
    await expect(new Runner({ traceIncludeSensitiveData: false }).run(agent, 'list')).rejects.toThrow('files server gone');
    const span = await endedSpan('mcp_tools');
    expect(span.span_data).toStrictEqual({ type: 'mcp_tools', server: 'files' });
    expect(span.error).toEqual({ message: 'Error listing MCP tools', data: { error: 'Error' } });
  });
});
