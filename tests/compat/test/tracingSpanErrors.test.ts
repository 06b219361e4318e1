import { afterEach, describe, expect, it } from 'vitest';
import { onBoth, sdks, type SdkUnderTest } from './sdks.js';
import { recordEndedSpans } from './endedSpans.js';

/**
 * The `error` a failed span carries, side by side, for the spans whose failure is the thrown error
 * itself (a handoff callback, the model call, an MCP listing), with sensitive data on and off: the
 * error's message (and its `data`, when it has some), never a wrapper.
 */

afterEach(() => {
  for (const { sdk } of sdks) sdk.setTraceProcessors([]);
});

class ErrorWithData extends Error {
  constructor(
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message);
  }
}

async function spanError(under: SdkUnderTest, type: string, run: (config: { traceIncludeSensitiveData: boolean }) => Promise<unknown>, traceIncludeSensitiveData: boolean) {
  const ended = recordEndedSpans(under);
  await run({ traceIncludeSensitiveData }).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 20));
  return ended.find((json) => json.span_data?.type === type)?.error ?? null;
}

function handoffCall() {
  let calls = 0;
  return {
    async getResponse() {
      calls += 1;
      const output =
        calls === 1
          ? [{ type: 'function_call', callId: 'h1', name: 'transfer_to_Billing', arguments: '{}', status: 'completed' }]
          : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }];
      return { output, usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0, inputTokensDetails: [], outputTokensDetails: [] } };
    },
    getStreamedResponse() {
      throw new Error('not streamed');
    },
  };
}

type Scenario = [label: string, spanType: string, error: () => Error, program: (under: SdkUnderTest, error: Error) => (config: { traceIncludeSensitiveData: boolean }) => Promise<unknown>];

/** A triage agent whose handoff callback rejects with \`error\`. */
const refusedHandoff: Scenario[3] = ({ sdk }, error) => (config) => {
  const billing = new sdk.Agent({ name: 'Billing' });
  const refusing = sdk.handoff(billing, { onHandoff: () => Promise.reject(error) } as never);
  const triage = new sdk.Agent({ name: 'Triage', model: handoffCall() as never, handoffs: [refusing] });
  return new sdk.Runner(config).run(triage, 'refund please');
};

const scenarios: Scenario[] = [
  ['a handoff whose callback rejects', 'handoff', () => new Error('billing desk closed'), refusedHandoff],
  ['a handoff whose callback rejects with an error carrying data', 'handoff', () => new ErrorWithData('billing desk closed', { desk: 'billing' }), refusedHandoff],
  [
    'an MCP server that cannot list its tools',
    'mcp_tools',
    () => new Error('files server gone'),
    ({ sdk }, error) => (config) => {
      const server = {
        name: 'files',
        cacheToolsList: false,
        connect: async () => {},
        close: async () => {},
        listTools: async () => {
          throw error;
        },
        callTool: async () => [],
        invalidateToolsCache: async () => {},
      };
      const agent = new sdk.Agent({ name: 'Archivist', model: handoffCall() as never, mcpServers: [server as never] });
      return new sdk.Runner(config).run(agent, 'list');
    },
  ],
];

describe('the error of a failed span', () => {
  const handoffs = scenarios.filter(([, type]) => type === 'handoff');

  it.each(handoffs)('%s, with sensitive data: the same on both SDKs (the message, and `data` when the error has some)', async (_label, type, makeError, program) => {
    const both = await onBoth((under) => spanError(under, type, program(under, makeError()), true));
    expect(both.reference).toEqual({ message: 'billing desk closed', ...(makeError() instanceof ErrorWithData ? { data: { desk: 'billing' } } : {}) });
    expect(both.baton).toEqual(both.reference);
  });

  it('an MCP listing that fails, with sensitive data: the server’s error text on both (Baton names the server around it)', async () => {
    const [, type, makeError, program] = scenarios.find(([, t]) => t === 'mcp_tools')!;
    const both = await onBoth((under) => spanError(under, type, program(under, makeError()), true));
    expect(both.reference).toEqual({ message: 'files server gone' });
    expect(both.baton).toEqual({ message: 'MCP server "files" could not list its tools: files server gone' });
  });

  // A deliberate difference (tracing README): without sensitive data no failure's text reaches a span.
  it.each(scenarios)('%s, without sensitive data: the reference records the error’s text, Baton a generic message', async (_label, type, makeError, program) => {
    const both = await onBoth((under) => spanError(under, type, program(under, makeError()), false));
    expect(JSON.stringify(both.reference)).toContain(makeError().message);
    expect(JSON.stringify(both.baton)).not.toContain(makeError().message);
    expect(both.baton).toEqual({ message: type === 'handoff' ? 'Error running handoff' : 'Error listing MCP tools', data: { error: 'Error' } });
  });
});
