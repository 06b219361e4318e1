import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf } from './sdks.js';

// Run options a ported program relies on, run on both SDKs.

const shapeOf = (items: readonly unknown[]) =>
  items.map((item) => {
    const i = item as { type?: string; role?: string; content?: unknown; callId?: string };
    return i.role ? `${i.role}:${typeof i.content === 'string' ? i.content : JSON.stringify(i.content)}` : `${i.type}:${i.callId}`;
  });

describe('reasoningItemIdPolicy (same on both SDKs)', () => {
  const reasoning = { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'thinking' }] };
  const reasoningIds = (items: readonly unknown[]) =>
    items.filter((item) => (item as { type?: string }).type === 'reasoning').map((item) => (item as { id?: string }).id ?? '(none)');

  it.each([undefined, 'preserve', 'omit'] as const)('%s: reasoning ids in the next request, history, output and the session', async (policy) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const lookup = sdk.tool({ name: 'lookup', description: 'l', parameters: z.object({}), execute: () => 'found' });
      const model = new testing.ScriptedModel([[reasoning as never, testing.functionCall('lookup', {}, { callId: 'c1' })], [testing.assistantMessage('done')]]);
      const session = new sdk.MemorySession();
      const result = await sdk.run(new sdk.Agent({ name: 'A', model, tools: [lookup] }), 'go', { session, ...(policy ? { reasoningItemIdPolicy: policy } : {}) });
      return {
        sent: reasoningIds(model.calls[1]!.request.input as unknown[]),
        history: reasoningIds(result.history),
        output: reasoningIds(result.output),
        session: reasoningIds(await session.getItems()),
      };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.sent).toEqual([policy === 'omit' ? '(none)' : 'rs_1']);
  });

  it('a paused run keeps its policy through toString(); a run option given on resume overrides it', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const outcomes: string[][] = [];
      for (const onResume of [undefined, 'preserve'] as const) {
        const pay = sdk.tool({ name: 'pay', description: 'p', parameters: z.object({}), needsApproval: true, execute: () => 'paid' });
        const model = new testing.ScriptedModel([[reasoning as never, testing.functionCall('pay', {}, { callId: 'c1' })], [testing.assistantMessage('done')]]);
        const agent = new sdk.Agent({ name: 'A', model, tools: [pay] });
        const paused = await sdk.run(agent, 'go', { reasoningItemIdPolicy: 'omit' });
        const state = await sdk.RunState.fromString(agent, paused.state.toString());
        state.approve(state.getInterruptions()[0]!);
        await sdk.run(agent, state, onResume ? { reasoningItemIdPolicy: onResume } : {});
        outcomes.push(reasoningIds(model.calls[1]!.request.input as unknown[]));
      }
      return outcomes;
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual([['(none)'], ['rs_1']]);
  });

  it('Baton: an unknown policy is a UserError', async () => {
    const { Agent, run, UserError } = await import('@baton/agents');
    await expect(run(new Agent({ name: 'A' }), 'go', { reasoningItemIdPolicy: 'drop' as never })).rejects.toThrow(UserError);
  });
});

describe('run options (same on both SDKs)', () => {
  it('callModelInputFilter edits what each model call sends, not the run’s history', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = new testing.ScriptedModel([[testing.assistantMessage('ok')]]);
      const agent = new sdk.Agent({ name: 'A', instructions: 'Be nice.', model });
      const seen: unknown[] = [];
      const result = await sdk.run(agent, 'my card is 4111', {
        callModelInputFilter: ({ modelData, agent: a }) => {
          seen.push({ agent: a.name, instructions: modelData.instructions, input: shapeOf(modelData.input) });
          return { instructions: `${modelData.instructions} Never repeat numbers.`, input: [...modelData.input, sdk.user('(redacted)')] };
        },
      });
      const sent = model.calls[0]!.request;
      return { seen, instructions: sent.systemInstructions, input: shapeOf(sent.input as unknown[]), history: shapeOf(result.history) };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('a callModelInputFilter that returns no input array fails the run with UserError', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = new testing.ScriptedModel([[testing.assistantMessage('ok')]]);
      const outcome = await outcomeOf(sdk.run(new sdk.Agent({ name: 'A', model }), 'hi', { callModelInputFilter: () => ({}) as never }));
      return { name: outcome.ok ? 'ok' : outcome.name, calls: model.calls.length };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.name).toBe('UserError');
  });

  it.each(['maxTurns', 'default'] as const)('errorHandlers.%s turns a max-turns failure into a final output', async (key) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const loop = sdk.tool({ name: 'again', description: 'again', parameters: z.object({}), execute: () => 'more' });
      const model = new testing.ScriptedModel([[testing.functionCall('again', {}, { callId: 'c1' })]]);
      const agent = new sdk.Agent({ name: 'A', model, tools: [loop] });
      const seen: string[] = [];
      const result = await sdk.run(agent, 'go', {
        maxTurns: 1,
        errorHandlers: {
          [key]: ({ error, runData }: { error: Error; runData: { newItems: unknown[] } }) => {
            seen.push(`${error.constructor.name}:${runData.newItems.length}`);
            return { finalOutput: 'Stopped after one turn.' };
          },
        } as never,
      });
      return { finalOutput: result.finalOutput, seen, items: result.newItems.map((i) => i.type), calls: model.calls.length };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.finalOutput).toBe('Stopped after one turn.');
  });

  it('a handler that returns nothing lets the error through; includeInHistory: false keeps the answer out of history', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const make = () =>
        new sdk.Agent({ name: 'A', model: new testing.ScriptedModel([[testing.assistantMessage('not json')]]), outputType: z.object({ n: z.number() }) });
      const passed = await outcomeOf(sdk.run(make(), 'go', { errorHandlers: { invalidFinalOutput: () => undefined } }));
      const handled = await sdk.run(make(), 'go', { errorHandlers: { invalidFinalOutput: () => ({ finalOutput: { n: 0 }, includeInHistory: false }) } });
      return { passed: passed.ok ? 'ok' : passed.name, finalOutput: handled.finalOutput, items: handled.newItems.map((i) => i.type) };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('sessionInputCallback merges the session history and the new input', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const session = new sdk.MemorySession();
      await session.addItems([sdk.user('old 1'), sdk.assistant('old answer'), sdk.user('old 2')]);
      const model = new testing.ScriptedModel([[testing.assistantMessage('ok')]]);
      await sdk.run(new sdk.Agent({ name: 'A', model }), 'new', {
        session,
        sessionInputCallback: (history, newItems) => [...history.slice(-1), ...newItems],
      });
      return { sent: shapeOf(model.calls[0]!.request.input as unknown[]), saved: shapeOf(await session.getItems()) };
    });
    expect(both.baton).toEqual(both.reference);
  });

  // What the session keeps as the new input once the callback changed it, for a table of callbacks.
  const callbacks: Record<string, (history: any[], newItems: any[]) => any[]> = {
    'redacts the new input': (history, newItems) => [...history, ...newItems.map((item) => ({ ...item, content: '[redacted]' }))],
    'drops the new input': (history) => history,
    'copies the history': (history, newItems) => [...history.map((item) => ({ ...item })), ...newItems],
    'puts the new input first': (history, newItems) => [...newItems, ...history],
    'adds an item': (history, newItems) => [...history, { role: 'user', content: 'context' }, ...newItems],
    'repeats a history item as new input': (history, newItems) => [...history, ...newItems.map(() => ({ role: 'user', content: 'old 1' }))],
  };
  it.each(Object.keys(callbacks))('sessionInputCallback that %s: the same request and the same saved history', async (name) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const session = new sdk.MemorySession();
      await session.addItems([sdk.user('old 1'), sdk.assistant('old answer')]);
      const model = new testing.ScriptedModel([[testing.assistantMessage('ok')]]);
      await sdk.run(new sdk.Agent({ name: 'A', model }), 'card 4242', { session, sessionInputCallback: callbacks[name]! as never });
      return { sent: shapeOf(model.calls[0]!.request.input as unknown[]), saved: shapeOf(await session.getItems()) };
    });
    expect(both.baton).toEqual(both.reference);
  });
});
