import { afterEach, describe, expect, it } from 'vitest';
import { onBoth, sdks, type SdkUnderTest } from './sdks.js';
import { recordEndedSpans } from './endedSpans.js';

/**
 * The data of a span whose work failed part-way, side by side: a handoff whose callback rejects
 * keeps its `from_agent` and gets no `to_agent` (agents-core `runner/toolExecution.js` sets it only
 * once the callback returned the next agent); an MCP server that cannot list its tools leaves its
 * listing span with its `server` and no `result` (`mcp.js` sets it after listing).
 */

afterEach(() => {
  for (const { sdk } of sdks) sdk.setTraceProcessors([]);
});

async function spanData(under: SdkUnderTest, type: string, run: () => Promise<unknown>) {
  const ended = recordEndedSpans(under);
  const outcome = await run().then(
    () => 'finished',
    () => 'failed',
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  const span = ended.find((json) => json.span_data?.type === type);
  return { outcome, data: span?.span_data ?? null, failed: Boolean(span?.error) };
}

/** A model that answers with one function call, then with text. */
function callingModel(name: string) {
  let calls = 0;
  const usage = { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  return {
    async getResponse() {
      calls += 1;
      const output =
        calls === 1
          ? [{ type: 'function_call', callId: 'h1', name, arguments: '{}', status: 'completed' }]
          : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }];
      return { output, usage: { ...usage, inputTokensDetails: [], outputTokensDetails: [] } };
    },
    getStreamedResponse() {
      throw new Error('not streamed');
    },
  };
}

describe('a span whose work failed part-way keeps only what it had', () => {
  it('a handoff whose callback rejects: from_agent, no to_agent, on both', async () => {
    const both = await onBoth((under) => {
      const { sdk } = under;
      const billing = new sdk.Agent({ name: 'Billing' });
      const refusing = sdk.handoff(billing, { onHandoff: () => Promise.reject(new Error('billing desk closed')) } as never);
      const triage = new sdk.Agent({ name: 'Triage', model: callingModel('transfer_to_Billing') as never, handoffs: [refusing] });
      return spanData(under, 'handoff', () => new sdk.Runner().run(triage, 'refund please'));
    });
    expect(both.reference).toEqual({ outcome: 'failed', data: { type: 'handoff', from_agent: 'Triage' }, failed: true });
    expect(both.baton).toEqual(both.reference);
  });

  it('an MCP server that cannot list its tools: server, no result, on both', async () => {
    const both = await onBoth((under) => {
      const { sdk } = under;
      const server = {
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
      const agent = new sdk.Agent({ name: 'Archivist', model: callingModel('read') as never, mcpServers: [server as never] });
      return spanData(under, 'mcp_tools', () => new sdk.Runner().run(agent, 'list'));
    });
    expect(both.reference).toEqual({ outcome: 'failed', data: { type: 'mcp_tools', server: 'files' }, failed: true });
    expect(both.baton).toEqual(both.reference);
  });
});
