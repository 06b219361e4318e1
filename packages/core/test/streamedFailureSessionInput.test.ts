import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, deferred, functionCall, modelError, modelResponder } from '@baton/testing';
import { InputGuardrailTripwireTriggered, type AgentInputItem } from '@baton/types';
import { Agent, MemorySession, run, tool } from '../src/index.js';

/**
 * A streamed run that fails after its model call started keeps its new input in its session, as
 * the reference's streamed runs do; plain runs, runs stopped by input guardrails and cancelled runs
 * write what they wrote before.
 */

const user = (text: string): AgentInputItem => ({ type: 'message', role: 'user', content: text }) as AgentInputItem;
const texts = (items: AgentInputItem[]) => items.map((item) => (item.type === 'message' ? String((item as { content: unknown }).content) : item.type));

async function settle(result: { completed: Promise<void> } & AsyncIterable<unknown>): Promise<unknown> {
  try {
    for await (const _ of result);
    await result.completed;
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('the session of a streamed run that failed', () => {
  it('keeps the new input when the model call failed', async () => {
    const session = new MemorySession({ initialItems: [user('before')] });
    const model = new ScriptedModel([modelError(new Error('provider down'))]);
    const failure = await settle(await run(new Agent({ name: 'A', model }), 'hello', { stream: true, session }));
    expect((failure as Error).message).toBe('provider down');
    expect(texts(await session.getItems())).toEqual(['before', 'hello']);
  });

  it('a compaction item in the input replaces the history from there, as the model was sent it', async () => {
    const session = new MemorySession({ initialItems: [user('previous session')] });
    const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'ciphertext' } as AgentInputItem;
    const model = new ScriptedModel([modelError(new Error('model stream failed after compaction'))]);
    const failure = await settle(await run(new Agent({ name: 'A', model }), [user('discarded'), compaction, user('retained')], { stream: true, session }));
    expect((failure as Error).message).toBe('model stream failed after compaction');
    expect(model.calls[0]!.request.input).toEqual([compaction, user('retained')]);
    expect(await session.getItems()).toEqual([compaction, user('retained')]);
  });

  it('a plain run that failed writes nothing (as the reference’s)', async () => {
    const session = new MemorySession({ initialItems: [user('before')] });
    const model = new ScriptedModel([modelError(new Error('provider down'))]);
    await expect(run(new Agent({ name: 'A', model }), 'hello', { session })).rejects.toThrow('provider down');
    expect(texts(await session.getItems())).toEqual(['before']);
  });

  it('a parallel input guardrail that trips while the model streams: nothing is written', async () => {
    const session = new MemorySession();
    const release = deferred();
    const model = new ScriptedModel([modelResponder(async () => (await release.promise, [assistantMessage('late')]))]);
    const agent = new Agent({
      name: 'A',
      model,
      inputGuardrails: [{ name: 'no', runInParallel: true, execute: async () => ({ tripwireTriggered: true, outputInfo: 'no' }) }],
    });
    const failure = await settle(await run(agent, 'hello', { stream: true, session }));
    release.resolve();
    expect(failure).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(await session.getItems()).toEqual([]);
  });

  it('failing on a later turn: the input and the finished turns are in the session once', async () => {
    const session = new MemorySession();
    const step = tool({ name: 'step', description: '', parameters: z.object({}), execute: () => 'stepped' });
    const model = new ScriptedModel([[functionCall('step', {}, { callId: 's1' })], modelError(new Error('second call failed'))]);
    const failure = await settle(await run(new Agent({ name: 'A', model, tools: [step] }), 'hello', { stream: true, session }));
    expect((failure as Error).message).toBe('second call failed');
    const saved = texts(await session.getItems());
    expect(saved.filter((t) => t === 'hello')).toHaveLength(1);
    expect(saved[0]).toBe('hello');
  });

  it('a session that cannot keep the input: the run’s error stays, with the failed save as its cause', async () => {
    class FailingSession extends MemorySession {
      override async addItems(): Promise<void> {
        throw new Error('disk full');
      }
    }
    const model = new ScriptedModel([modelError(new Error('provider down'))]);
    const failure = await settle(await run(new Agent({ name: 'A', model }), 'hello', { stream: true, session: new FailingSession() }));
    expect((failure as Error).message).toBe('provider down');
    expect(((failure as Error).cause as Error).message).toBe('disk full');
  });

  it('a run cancelled during its model call writes nothing', async () => {
    const session = new MemorySession();
    const model = new ScriptedModel([
      modelResponder(
        (call) =>
          new Promise((_, reject) => call.request.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), { once: true })),
      ),
    ]);
    const result = await run(new Agent({ name: 'A', model }), 'hello', { stream: true, session });
    await new Promise((resolve) => setTimeout(resolve, 5));
    result.cancel();
    await settle(result);
    expect(await session.getItems()).toEqual([]);
  });
});
