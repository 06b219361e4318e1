import { describe, expect, it } from 'vitest';
import { onBoth, outcomeOf } from './sdks.js';

// Sessions and server-kept conversations, run on both SDKs.

const shapeOf = (items: readonly unknown[]) =>
  items.map((item) => {
    const i = item as { type?: string; role?: string; content?: unknown; callId?: string; name?: string };
    return i.role ? `${i.role}:${typeof i.content === 'string' ? i.content : JSON.stringify(i.content)}` : `${i.type}:${i.callId}:${i.name}`;
  });

describe('sessions (same on both SDKs)', () => {
  it.each([{ conversationId: 'conv_1' }, { previousResponseId: 'resp_1' }, { conversationId: 'conv_1', previousResponseId: 'resp_1' }])(
    'with a server-kept conversation (%o) nothing is written to the session',
    async (options) => {
      const both = await onBoth(async ({ sdk, testing }) => {
        const session = new sdk.MemorySession();
        const model = new testing.ScriptedModel([[testing.assistantMessage('ok')]]);
        const outcome = await outcomeOf(sdk.run(new sdk.Agent({ name: 'A', model }), 'hi', { ...options, session }));
        const request = model.calls[0]?.request;
        return {
          outcome: outcome.ok ? outcome.value.finalOutput : outcome.name,
          saved: (await session.getItems()).length,
          conversationId: request?.conversationId,
          previousResponseId: request?.previousResponseId,
        };
      });
      expect(both.baton).toEqual(both.reference);
      expect(both.baton.saved).toBe(0);
    },
  );

  it('MemorySession history mutations and once-only transactions', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const call = (callId: string, args: string) => ({ type: 'function_call' as const, callId, name: 'pay', arguments: args });
      const session = new sdk.MemorySession({ sessionId: 's1', initialItems: [sdk.user('pay bob'), call('c1', '{"to":"bob"}')] });
      await session.applyHistoryMutations({ mutations: [{ type: 'replace_function_call', callId: 'c1', replacement: call('c1', '{"to":"alice"}') }] });
      await session.applyHistoryTransaction({ operationId: 'op1', transaction: { type: 'append_items', items: [sdk.assistant('done')] } });
      await session.applyHistoryTransaction({ operationId: 'op1', transaction: { type: 'append_items', items: [sdk.assistant('done')] } });
      const conflicting = await outcomeOf(session.applyHistoryTransaction({ operationId: 'op1', transaction: { type: 'append_items', items: [] } }));
      const staleSuffix = await outcomeOf(
        session.applyHistoryTransaction({ operationId: 'op2', transaction: { type: 'replace_suffix', expectedSuffix: [sdk.assistant('other')], replacement: [] } }),
      );
      await session.applyHistoryTransaction({ operationId: 'op3', transaction: { type: 'replace_suffix', expectedSuffix: [sdk.assistant('done')], replacement: [sdk.assistant('paid')] } });
      return {
        id: await session.getSessionId(),
        items: shapeOf(await session.getItems()),
        arguments: ((await session.getItems())[1] as { arguments?: string }).arguments,
        conflicting: conflicting.ok ? 'ok' : conflicting.name,
        staleSuffix: staleSuffix.ok ? 'ok' : staleSuffix.name,
        guards: [sdk.isSessionHistoryRewriteAwareSession(session), sdk.isSessionHistoryTransactionAwareSession(session), sdk.isRunContextAwareSession(session)],
      };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.items).toHaveLength(3);
  });
});
