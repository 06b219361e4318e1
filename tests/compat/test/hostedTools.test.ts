import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeItems, fakeText, type FakeTurn } from '@baton/testing';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// OpenAI's hosted tools on both SDKs against the fake Responses API: the tool definitions and
// `include` sent, the hosted calls the API returns (run items, stream events, history sent back,
// serialized state), and a remote MCP server's approval requests answered by a human across a
// serialization or by `onApproval` in code.

function hostedTools({ sdk }: SdkUnderTest, onApproval?: (context: unknown, item: any) => Promise<{ approve: boolean; reason?: string }>) {
  return [
    sdk.webSearchTool({ searchContextSize: 'high', userLocation: { type: 'approximate', city: 'Paris' }, filters: { allowedDomains: ['example.com'] } }),
    sdk.fileSearchTool(['vs_1', 'vs_2'], { maxNumResults: 3, includeSearchResults: true }),
    sdk.codeInterpreterTool({ includeOutputs: true }),
    sdk.imageGenerationTool({ quality: 'low', size: '1024x1024' }),
    sdk.hostedMcpTool({
      serverLabel: 'deepwiki',
      serverUrl: 'https://mcp.example.com/mcp',
      allowedTools: ['ask_question'],
      requireApproval: { always: { toolNames: ['ask_question'] } },
      ...(onApproval ? { onApproval } : {}),
    } as never),
    sdk.tool({ name: 'lookup', description: 'Find.', parameters: z.object({ id: z.string() }), execute: ({ id }) => `found ${id}` }),
  ];
}

const hostedCalls = [
  { id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'baton sdk' } },
  { id: 'fs_1', type: 'file_search_call', status: 'completed', queries: ['refunds'], results: [{ file_id: 'file_1', filename: 'policy.pdf', score: 0.9, text: 'Refunds within 30 days.' }] },
  { id: 'ci_1', type: 'code_interpreter_call', status: 'completed', code: 'print(6*7)', container_id: 'cntr_1', outputs: [{ type: 'logs', logs: '42' }] },
  { id: 'ig_1', type: 'image_generation_call', status: 'completed', result: 'iVBORw0KGgo=' },
  { id: 'mcpl_1', type: 'mcp_list_tools', server_label: 'deepwiki', tools: [{ name: 'ask_question', input_schema: { type: 'object' }, annotations: null, description: 'Ask.' }] },
  { id: 'mcp_1', type: 'mcp_call', server_label: 'deepwiki', name: 'read_wiki', arguments: '{"repo":"x"}', output: 'The wiki says hi.', error: null },
];

const approvalRequest = { id: 'mcpr_1', type: 'mcp_approval_request', server_label: 'deepwiki', name: 'ask_question', arguments: '{"question":"What is Baton?"}' };

async function withServer<T>(turns: FakeTurn[], program: (provider: unknown, server: FakeOpenAIServer) => Promise<T>): Promise<T> {
  const server = await FakeOpenAIServer.start({ turns });
  try {
    return await program(undefined, server);
  } finally {
    await server.close();
  }
}

function runner(under: SdkUnderTest, server: FakeOpenAIServer) {
  const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
  return new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
}

const itemsOf = (items: any[]) => items.map((item) => ({ type: item.type, rawItem: item.rawItem }));

describe('hosted tools (same on both SDKs)', () => {
  it('the tool definitions and include sent to the Responses API', async () => {
    const both = await onBoth((under) =>
      withServer([fakeText('ok')], async (_, server) => {
        await runner(under, server).run(new under.sdk.Agent({ name: 'Researcher', instructions: 'Research.', tools: hostedTools(under) }), 'go');
        return server.requests.map((r) => r.body);
      }),
    );
    expect(both.baton).toEqual(both.reference);
    expect((both.baton[0] as { include: string[] }).include).toEqual(['file_search_call.results', 'code_interpreter_call.outputs']);
  });

  it('hosted calls become run items and stream events, go back to the API, and survive serialization', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems(hostedCalls), fakeText('done')], async (_, server) => {
        const agent = new under.sdk.Agent({ name: 'Researcher', tools: hostedTools(under) });
        const result = await runner(under, server).run(agent, 'go', { stream: true });
        const events: string[] = [];
        for await (const event of result as AsyncIterable<any>) if (event.type === 'run_item_stream_event') events.push(`${event.name}:${event.item.rawItem?.name ?? event.item.type}`);
        await result.completed;
        const state = JSON.parse(result.state.toString());
        return {
          finalOutput: result.finalOutput,
          events,
          items: itemsOf(result.newItems),
          sentBack: (server.requests[1]!.body as { input: unknown[] }).input,
          stateItems: state.generatedItems.map((item: any) => ({ type: item.type, rawItem: item.rawItem })),
          restored: itemsOf((await under.sdk.RunState.fromString(agent, result.state.toString())).toJSON().generatedItems as never),
        };
      }),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.items.map((i) => i.rawItem.name)).toEqual(['web_search_call', 'file_search_call', 'code_interpreter_call', 'image_generation_call', 'mcp_list_tools', 'mcp_call', undefined]);
  });

  it('a remote MCP server’s approval request pauses the run; approved after a round trip through a string, the answer goes back', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems([hostedCalls[4]!, approvalRequest]), fakeText('Baton is an agents SDK.')], async (_, server) => {
        const agent = new under.sdk.Agent({ name: 'Researcher', tools: hostedTools(under) });
        const run = runner(under, server);
        const paused = await run.run(agent, 'What is Baton?');
        const interruptions = paused.interruptions.map((i: any) => ({ type: i.type, name: i.name, arguments: i.arguments, rawItem: i.rawItem }));
        const state = await under.sdk.RunState.fromString(agent, paused.state.toString());
        state.approve(state.getInterruptions()[0]!);
        const resumed = await run.run(agent, state);
        return {
          interruptions,
          requestsWhilePaused: 1,
          finalOutput: resumed.finalOutput,
          sentBack: (server.requests[1]!.body as { input: unknown[] }).input,
          items: itemsOf(resumed.newItems),
        };
      }),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.interruptions).toEqual([expect.objectContaining({ type: 'tool_approval_item', name: 'ask_question' })]);
    expect(both.baton.sentBack).toContainEqual(expect.objectContaining({ type: 'mcp_approval_response', approve: true, approval_request_id: 'mcpr_1' }));
  });

  it('an "always approve" given to one MCP server does not answer another server asking for its tool of the same name', async () => {
    const ask = (id: string, server: string) => ({ ...approvalRequest, id, server_label: server });
    const both = await onBoth((under) =>
      withServer([fakeItems([ask('mcpr_a', 'wiki-a')]), fakeItems([ask('mcpr_b', 'wiki-b')])], async (_, server) => {
        const servers = ['wiki-a', 'wiki-b'].map((label) =>
          under.sdk.hostedMcpTool({ serverLabel: label, serverUrl: `https://${label}.example/mcp`, requireApproval: 'always' } as never),
        );
        const agent = new under.sdk.Agent({ name: 'Researcher', tools: servers });
        const run = runner(under, server);
        const paused = await run.run(agent, 'What is Baton?');
        paused.state.approve(paused.interruptions[0]!, { alwaysApprove: true });
        const resumed = await run.run(agent, await under.sdk.RunState.fromString(agent, paused.state.toString()));
        return {
          first: paused.interruptions.map((i: any) => i.rawItem.providerData.server_label),
          second: resumed.interruptions.map((i: any) => i.rawItem.providerData.server_label),
          sentBack: (server.requests[1]!.body as { input: Array<{ type: string }> }).input.filter((item) => item.type === 'mcp_approval_response'),
        };
      }),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toMatchObject({ first: ['wiki-a'], second: ['wiki-b'] });
  });

  it('paused on the reference, approved and resumed on Baton: the same answer goes back', async () => {
    const { sdks } = await import('./sdks.js');
    const [reference, baton] = [sdks[0]!, sdks[1]!];
    const stored = await withServer([fakeItems([approvalRequest])], async (_, server) => {
      const paused = await runner(reference, server).run(new reference.sdk.Agent({ name: 'Researcher', tools: hostedTools(reference) }), 'What is Baton?');
      return paused.state.toString();
    });
    const resumedOn = (under: SdkUnderTest) =>
      withServer([fakeText('Baton is an agents SDK.')], async (_, server) => {
        const agent = new under.sdk.Agent({ name: 'Researcher', tools: hostedTools(under) });
        const state = await under.sdk.RunState.fromString(agent, stored);
        const [pending] = state.getInterruptions();
        state.approve(pending!);
        const result = await runner(under, server).run(agent, state);
        return { pending: (pending as any).name, finalOutput: result.finalOutput, sentBack: (server.requests[0]!.body as { input: unknown[] }).input };
      });
    const [onReference, onBaton] = [await resumedOn(reference), await resumedOn(baton)];
    expect(onBaton).toEqual(onReference);
    expect(onBaton.sentBack).toContainEqual(expect.objectContaining({ type: 'mcp_approval_response', approve: true, approval_request_id: 'mcpr_1' }));
  });

  it('rejected with a message', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems([approvalRequest]), fakeText('I may not ask.')], async (_, server) => {
        const agent = new under.sdk.Agent({ name: 'Researcher', tools: hostedTools(under) });
        const run = runner(under, server);
        const paused = await run.run(agent, 'What is Baton?');
        paused.state.reject(paused.interruptions[0]!, { message: 'Not today.' } as never);
        const resumed = await run.run(agent, paused.state);
        return { finalOutput: resumed.finalOutput, sentBack: (server.requests[1]!.body as { input: unknown[] }).input };
      }),
    );
    expect(both.baton).toEqual(both.reference);
  });

  it('decided by onApproval in code: no pause', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems([approvalRequest]), fakeText('Answered.')], async (_, server) => {
        const seen: string[] = [];
        const onApproval = async (_context: unknown, item: any) => {
          seen.push(`${item.name} ${item.rawItem.providerData.arguments}`);
          return { approve: false, reason: 'Questions are closed.' };
        };
        const agent = new under.sdk.Agent({ name: 'Researcher', tools: hostedTools(under, onApproval) });
        const result = await runner(under, server).run(agent, 'What is Baton?');
        return { seen, finalOutput: result.finalOutput, interruptions: result.interruptions.length, sentBack: (server.requests[1]!.body as { input: unknown[] }).input, items: itemsOf(result.newItems) };
      }),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.seen).toEqual(['ask_question {"question":"What is Baton?"}']);
  });

  it('an approval request from a server the agent does not have is a ModelBehaviorError', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems([{ ...approvalRequest, server_label: 'elsewhere' }])], async (_, server) => {
        const outcome = await outcomeOf(runner(under, server).run(new under.sdk.Agent({ name: 'Researcher', tools: hostedTools(under) }), 'go'));
        return outcome.ok ? 'ok' : `${outcome.name}: ${(outcome.error as Error).message}`;
      }),
    );
    expect(both.baton).toEqual(both.reference);
  });

  it('a hosted tool on the Chat Completions model is a UserError naming it', async () => {
    const server = await FakeOpenAIServer.start({ turns: [fakeText('never')] });
    try {
      const { sdks } = await import('./sdks.js');
      const baton = sdks[1]!;
      const provider = new baton.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: false });
      const run = new baton.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
      const outcome = await outcomeOf(run.run(new baton.sdk.Agent({ name: 'A', tools: [baton.sdk.webSearchTool()] }), 'go'));
      expect(outcome.ok).toBe(false);
      expect((outcome as { error: Error }).error).toBeInstanceOf(baton.sdk.UserError);
      expect((outcome as { error: Error }).error.message).toMatch(/tool "web_search"/);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
