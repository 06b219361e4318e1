import { describe, expect, it } from 'vitest';
import { onBoth } from './sdks.js';

// A run on a server-kept conversation hands off; the target's streamed model call is cancelled
// before its response completes, and the run is resumed. The resumed request sends again what the
// cancelled one sent (the handoff's answers, an ignored handoff's too), not the user input or the
// calls the server already holds. The same program on both SDKs, for a conversation id and for a
// previous response id, with one handoff call and with a second one ignored.

const chains = ['conversationId', 'previousResponseId'] as const;
const calls = ['one handoff call', 'a second handoff call ignored'] as const;

describe('a run resumed after its model call was cancelled, on a server-kept conversation (same on both SDKs)', () => {
  it.each(chains.flatMap((chain) => calls.map((call) => [chain, call] as const)))('%s, %s', async (chain, callsKind) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const requests: Array<{ input: unknown; previousResponseId?: string; conversationId?: string }> = [];
      const record = (request: any) =>
        requests.push({ input: JSON.parse(JSON.stringify(request.input)), previousResponseId: request.previousResponseId, conversationId: request.conversationId });
      const targetModel = new testing.ScriptedModel([
        testing.modelStreamResponder((call: any) =>
          (async function* () {
            record(call.request);
            yield { type: 'output_text_delta', delta: 'ack' } as any;
            const signal = call.request.signal as AbortSignal;
            await new Promise((_resolve, reject) => {
              const error = Object.assign(new Error('aborted'), { name: 'AbortError' });
              if (signal.aborted) reject(error);
              else signal.addEventListener('abort', () => reject(error), { once: true });
            });
          })(),
        ),
        testing.modelStreamResponder((call: any) => {
          record(call.request);
          return [{ type: 'response_done', response: { id: 'resp-target', usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: [testing.assistantMessage('done')] } }] as any;
        }),
      ] as any);
      const target = new sdk.Agent({ name: 'Target', model: targetModel });
      const other = new sdk.Agent({ name: 'Other', model: new testing.ScriptedModel([[testing.assistantMessage('other')]]) });
      const toTarget = sdk.handoff(target);
      const toOther = sdk.handoff(other);
      const handoffCalls = [{ id: 'h1', type: 'function_call', name: toTarget.toolName, callId: 'c1', status: 'completed', arguments: '{}' }];
      if (callsKind === 'a second handoff call ignored') handoffCalls.push({ id: 'h2', type: 'function_call', name: toOther.toolName, callId: 'c2', status: 'completed', arguments: '{}' });
      const sourceModel = new testing.ScriptedModel([testing.modelResponse({ output: handoffCalls, usage: new sdk.Usage(), responseId: 'resp-source' } as any)] as any);
      const source = new sdk.Agent({ name: 'Source', model: sourceModel, handoffs: [toTarget, toOther] });
      const chainOption = chain === 'conversationId' ? { conversationId: 'conv-1' } : { previousResponseId: 'resp-before' };
      const runner = new sdk.Runner();
      const first = await runner.run(source, 'hi', { stream: true, ...chainOption });
      const reader = (first.toStream() as any).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value?.type === 'raw_model_stream_event' && value.data?.type === 'output_text_delta') {
          await reader.cancel('stop');
          break;
        }
      }
      await first.completed.catch(() => undefined);
      const resumed = await runner.run(source, first.state, { stream: true, ...chainOption });
      for await (const _event of resumed);
      await resumed.completed;
      const items = (input: unknown) => (input as any[]).map((item) => `${item.type}:${item.callId ?? item.role}`);
      return { requests: requests.map((request) => ({ ...request, input: items(request.input) })), finalOutput: resumed.finalOutput };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.requests[1]!.input).toEqual(both.baton.requests[0]!.input);
  });
});

describe('a multi-turn run on a server-kept conversation (same on both SDKs)', () => {
  it.each([
    ['conversationId', { conversationId: 'conv-1' }],
    ['previousResponseId', { previousResponseId: 'resp-before' }],
    ['both', { conversationId: 'conv-1', previousResponseId: 'resp-before' }],
  ] as const)('%s: what each request chains by', async (_label, chainOption) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const echo = sdk.tool({ name: 'echo', description: 'echo', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: true, execute: async () => 'echoed' } as never);
      const model = new testing.ScriptedModel([
        testing.modelResponse({ output: [testing.functionCall('echo', {}, { callId: 'c1' })], usage: new sdk.Usage(), responseId: 'resp-1' } as any),
        testing.modelResponse({ output: [testing.functionCall('echo', {}, { callId: 'c2' })], usage: new sdk.Usage(), responseId: 'resp-2' } as any),
        testing.modelResponse({ output: [testing.assistantMessage('done')], usage: new sdk.Usage(), responseId: 'resp-3' } as any),
      ] as any);
      const result = await sdk.run(new sdk.Agent({ name: 'A', model, tools: [echo] }), 'hi', chainOption);
      return {
        finalOutput: result.finalOutput,
        requests: (model as any).calls.map((call: any) => ({ previousResponseId: call.request.previousResponseId, conversationId: call.request.conversationId, input: Array.isArray(call.request.input) ? call.request.input.length : 'text' })),
      };
    });
    expect(both.baton).toEqual(both.reference);
  });
});
