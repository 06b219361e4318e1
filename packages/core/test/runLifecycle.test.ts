import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, aborted, assistantMessage, deferred, functionCall, modelResponder, within } from '@baton/testing';
import { Agent, MemorySession, Runner, run, tool } from '../src/index.js';
import { recordingTracer } from './helpers.js';

describe('cancelling a streamed run', () => {
  it('completed settles promptly when the model honours the abort', async () => {
    const abortError = () => Object.assign(new Error('aborted'), { name: 'AbortError' });
    const model = new ScriptedModel([modelResponder(async (call) => aborted(call.request.signal).then(() => Promise.reject(abortError())))]);
    const result = await run(new Agent({ name: 'A', model }), 'hi', { stream: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
    result.cancel();
    await within(result.completed, 1_000, 'completed did not settle after the abort');
    expect(result.cancelled).toBe(true);
  });

  it('when the model ignores the abort, completed settles only after the model call has ended', async () => {
    const release = deferred();
    let callEnded = false;
    const model = new ScriptedModel([
      modelResponder(async () => {
        await release.promise; // ignores request.signal
        callEnded = true;
        return [assistantMessage('late')];
      }),
    ]);
    const result = await run(new Agent({ name: 'A', model }), 'hi', { stream: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
    result.cancel();
    let settled = false;
    const done = result.completed.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled).toBe(false);
    release.resolve();
    await within(done, 1_000, 'completed did not settle after the model call ended');
    expect(callEnded).toBe(true);
    expect(result.finalOutput).toBeUndefined();
  });
});

describe('sessions', () => {
  function nestedSetup() {
    const childModel = new ScriptedModel([[assistantMessage('child says hi')]]);
    const child = new Agent({ name: 'Child', model: childModel });
    const parentModel = new ScriptedModel([
      [functionCall('ask_child', { input: 'hello' }, { callId: 'c1' })],
      [assistantMessage('parent done')],
    ]);
    const parent = new Agent({ name: 'Parent', model: parentModel, tools: [child.asTool({ toolName: 'ask_child', toolDescription: 'Ask the child' })] });
    return parent;
  }

  const shapeOf = (items: readonly unknown[]) =>
    items.map((item) => {
      const i = item as { type?: string; role?: string; name?: string; content?: unknown };
      return i.type === 'function_call' ? `call:${i.name}` : i.type === 'function_call_result' ? 'result' : `${i.role}:${JSON.stringify(i.content)}`;
    });

  it.each([false, true])('a nested agent tool does not write into the parent session (streamed: %s)', async (stream) => {
    const session = new MemorySession();
    const result = await run(nestedSetup(), 'start', { session, stream: stream as never });
    if (stream) {
      for await (const _ of result as AsyncIterable<unknown>) {
        // drain
      }
      await (result as { completed: Promise<void> }).completed;
    }
    const saved = shapeOf(await session.getItems());
    expect(saved[0]).toBe('user:"start"');
    expect(saved.slice(1)).toEqual(['call:ask_child', 'result', expect.stringMatching(/^assistant:.*parent done/)]);
    expect(saved.join()).not.toContain('child says hi');
  });

  it('runEffect saves to the session exactly what run() saves', async () => {
    const viaRun = new MemorySession();
    await run(nestedSetup(), 'start', { session: viaRun });
    const viaEffect = new MemorySession();
    await Effect.runPromise(new Runner().runEffect(nestedSetup(), 'start', { session: viaEffect }));
    expect(shapeOf(await viaEffect.getItems())).toEqual(shapeOf(await viaRun.getItems()));
    expect(await viaEffect.getItems()).toHaveLength(4);
  });

  it('resuming a state read back from storage appends what follows the pause to the session', async () => {
    const pay = tool({ name: 'pay', description: 'pay', parameters: z.object({ to: z.string() }), needsApproval: true, execute: ({ to }) => `paid ${to}` });
    const model = new ScriptedModel([[functionCall('pay', { to: 'bob' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const session = new MemorySession();
    const paused = await run(agent, 'pay bob', { session });
    expect(shapeOf(await session.getItems())).toEqual(['user:"pay bob"', 'call:pay']);
    const { RunState } = await import('../src/index.js');
    const restored = await RunState.fromString(agent, paused.state.toString());
    restored.approve(restored.getInterruptions()[0]!);
    await run(agent, restored, { session });
    expect(shapeOf(await session.getItems())).toEqual(['user:"pay bob"', 'call:pay', 'result', expect.stringMatching(/^assistant:.*done/)]);
  });
});

describe('runEffect', () => {
  it('reports its spans to the tracer given in the options', async () => {
    const { tracer, spans } = recordingTracer();
    const model = new ScriptedModel([[assistantMessage('hi')]]);
    await Effect.runPromise(new Runner().runEffect(new Agent({ name: 'A', model }), 'go', { tracer }));
    const names = spans.map((s) => s.name);
    expect(names).toContain('baton.model');
    expect(names.at(-1)).toBe('baton.run');
  });
});
