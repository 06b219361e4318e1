import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// state.addInput(...): input staged on a paused run enters the history right before the next model
// call. Run on both SDKs.

const shape = (items: readonly unknown[]) =>
  items.map((item) => {
    const i = item as { type?: string; role?: string; content?: unknown; callId?: string };
    return i.role ? `${i.role}:${typeof i.content === 'string' ? i.content : JSON.stringify(i.content)}` : `${i.type}:${i.callId}`;
  });

async function pausedPayment({ sdk, testing }: SdkUnderTest, agentOptions: Record<string, unknown> = {}) {
  const pay = sdk.tool({ name: 'pay', description: 'p', parameters: z.object({}), needsApproval: true, execute: () => 'paid' });
  const model = new testing.ScriptedModel([[testing.functionCall('pay', {}, { callId: 'c1' })], [testing.assistantMessage('done')]]);
  const agent = new sdk.Agent({ name: 'A', model, tools: [pay], ...agentOptions });
  const session = new sdk.MemorySession();
  const paused = await sdk.run(agent, 'go', { session });
  return { agent, model, session, paused };
}

describe('RunState.addInput (same on both SDKs)', () => {
  it.each([false, true])('staged input reaches the next model call, history and session, not output (through toString: %s)', async (serialize) => {
    const both = await onBoth(async (under) => {
      const { sdk } = under;
      const { agent, model, session, paused } = await pausedPayment(under);
      let state = paused.state;
      state.addInput('also pay bob');
      state.addInput([sdk.user('and carol')]);
      const staged = shape(state.pendingInput);
      if (serialize) state = await sdk.RunState.fromString(agent, state.toString());
      state.approve(state.getInterruptions()[0]!);
      const result = await sdk.run(agent, state, { session });
      const stored = JSON.parse(result.state.toString()) as { generatedItems: Array<{ type: string; rawItem: unknown }> };
      return {
        staged,
        sent: shape(model.calls[1]!.request.input as unknown[]),
        newItems: result.newItems.map((item) => item.type),
        history: shape(result.history),
        output: shape(result.output),
        session: shape(await session.getItems()),
        pendingAfter: result.state.pendingInput.length,
        storedInputItems: stored.generatedItems.filter((item) => item.type === 'input_item').map((item) => shape([item.rawItem])[0]),
      };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.sent.slice(-2)).toEqual(['user:also pay bob', 'user:[{"type":"input_text","text":"and carol"}]']);
  });

  it('clearPendingInput drops what was staged', async () => {
    const both = await onBoth(async (under) => {
      const { agent, model, paused } = await pausedPayment(under);
      paused.state.addInput('never mind');
      paused.state.clearPendingInput();
      paused.state.approve(paused.state.getInterruptions()[0]!);
      await under.sdk.run(agent, paused.state);
      return shape(model.calls[1]!.request.input as unknown[]);
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('a finished run, or one whose pending tool result may end it, takes no input (UserError)', async () => {
    const both = await onBoth(async (under) => {
      const { sdk, testing } = under;
      const finished = await sdk.run(new sdk.Agent({ name: 'B', model: new testing.ScriptedModel([[testing.assistantMessage('hi')]]) }), 'x');
      const { paused } = await pausedPayment(under, { toolUseBehavior: 'stop_on_first_tool' });
      const { paused: stopAt } = await pausedPayment(under, { toolUseBehavior: { stopAtToolNames: ['pay'] } });
      const { paused: other } = await pausedPayment(under, { toolUseBehavior: { stopAtToolNames: ['refund'] } });
      const attempt = async (state: { addInput(input: string): void }) => {
        const outcome = await outcomeOf(Promise.resolve().then(() => state.addInput('more')));
        return outcome.ok ? 'ok' : outcome.name;
      };
      return [await attempt(finished.state), await attempt(paused.state), await attempt(stopAt.state), await attempt(other.state)];
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual(['UserError', 'UserError', 'UserError', 'ok']);
  });
});
