import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  MemorySession,
  RequestUsage,
  RunCompactionItem,
  RunContext,
  RunState,
  Usage,
  UserError,
  isOpenAIResponsesCompactionAwareSession,
  isOpenAIResponsesCompactionOwnershipAwareSession,
  run,
  tool,
  type AgentInputItem,
  type CompactionItem,
  type RunStreamEvent,
} from '../src/index.js';

const compaction: CompactionItem = { type: 'compaction', id: 'cmp_1', encrypted_content: 'ciphertext', created_by: 'model' };

describe('compaction items a model returns', () => {
  it('are kept in newItems and history as RunCompactionItem, streamed as compaction_item_created, and sent back on the next turn', async () => {
    const model = new ScriptedModel([{ output: [compaction, assistantMessage('done')], usage: new Usage({ requests: 1 }) }]);
    const result = await run(new Agent({ name: 'Compactor', model }), 'hi', { stream: true });
    const events: RunStreamEvent[] = [];
    for await (const event of result as AsyncIterable<RunStreamEvent>) events.push(event);
    await result.completed;
    expect(result.newItems.map((item) => item.type)).toEqual(['compaction_item', 'message_output_item']);
    expect(result.newItems[0]).toBeInstanceOf(RunCompactionItem);
    expect(result.history).toContainEqual(compaction);
    expect(events).toContainEqual(expect.objectContaining({ type: 'run_item_stream_event', name: 'compaction_item_created', item: result.newItems[0] }));
    expect(result.newItems[0]!.toJSON()).toEqual({ type: 'compaction_item', rawItem: compaction, agent: { name: 'Compactor' } });
  });

  it('survive toString() / fromString()', async () => {
    const agent = new Agent({ name: 'Keeper', model: new ScriptedModel([]) });
    const state = new RunState(new RunContext(), 'hi', agent, 3);
    state._generatedItems.push(new RunCompactionItem(compaction, agent));
    const restored = await RunState.fromString(agent, state.toString());
    expect(restored.generatedItems).toEqual([expect.any(RunCompactionItem)]);
    expect(restored.generatedItems[0]!.rawItem).toEqual(compaction);
    expect(restored.history.at(-1)).toEqual(compaction);
  });

  it('one without its encrypted payload fails the run with a UserError, and nothing is written to the session', async () => {
    const session = new MemorySession();
    const model = new ScriptedModel([[{ type: 'compaction', id: 'cmp_bad' } as never]]);
    const error = await run(new Agent({ name: 'Broken', model }), 'hi', { session }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('Compaction item missing encrypted_content');
    expect((error as Error).message).toContain('cmp_bad');
    expect((error as Error).name).toBe('CompactionItemValidationError');
    expect(await session.getItems()).toEqual([]);
  });

  it('streamed, the same: a failed streamed run keeps its input in its session, but not when a malformed compaction failed it', async () => {
    const session = new MemorySession();
    const model = new ScriptedModel([[{ type: 'compaction', id: 'cmp_bad' } as never]]);
    const result = await run(new Agent({ name: 'Broken', model }), 'hi', { session, stream: true });
    const error = await (async () => {
      try {
        for await (const _ of result);
        await result.completed;
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).name).toBe('CompactionItemValidationError');
    expect(await session.getItems()).toEqual([]);
  });
});

describe('compaction-aware sessions', () => {
  class CompactingSession extends MemorySession {
    readonly calls: unknown[][] = [];
    constructor(private readonly answer: { usage: RequestUsage } | null) {
      super();
    }
    async runCompaction(...args: unknown[]) {
      this.calls.push([...args, await this.getItems()]);
      return this.answer;
    }
  }

  it('the guards tell them apart by their methods', () => {
    const plain = new MemorySession();
    const aware = Object.assign(new MemorySession(), { runCompaction: () => null });
    const owning = Object.assign(new MemorySession(), { runCompaction: () => null, getItemsWithCompactionOwnership: async () => ({ items: [], ownership: {} }), addItemsWithCompactionOwnership: async () => {} });
    expect([undefined, plain, aware, owning].map((s) => isOpenAIResponsesCompactionAwareSession(s))).toEqual([false, false, true, true]);
    expect([undefined, plain, aware, owning].map((s) => isOpenAIResponsesCompactionOwnershipAwareSession(s))).toEqual([false, false, false, true]);
  });

  it('are asked to compact after the run has saved its items, with the last response id and store setting; the usage they report counts', async () => {
    const session = new CompactingSession({ usage: new RequestUsage({ inputTokens: 30, outputTokens: 5, totalTokens: 35 }) });
    const model = new ScriptedModel([{ output: [assistantMessage('done')], usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 2, totalTokens: 12 }), responseId: 'resp_9' }]);
    const result = await run(new Agent({ name: 'Saver', model, modelSettings: { store: true } }), 'hi', { session });
    expect(session.calls).toHaveLength(1);
    const [args, saved] = [session.calls[0]![0], session.calls[0]!.at(-1) as AgentInputItem[]];
    expect(args).toEqual({ responseId: 'resp_9', store: true });
    expect(saved).toHaveLength(2);
    expect(result.state.usage).toMatchObject({ requests: 2, inputTokens: 40, outputTokens: 7, totalTokens: 47 });
  });

  it('a session that declines (null) adds no usage; a failed run is not compacted', async () => {
    const session = new CompactingSession(null);
    const ok = await run(new Agent({ name: 'Decliner', model: new ScriptedModel([[assistantMessage('done')]]) }), 'hi', { session });
    expect(session.calls).toHaveLength(1);
    // The scripted model names its responses, so the last one's id is passed (no store setting).
    expect(session.calls[0]![0]).toEqual({ responseId: 'scripted-response-1' });
    expect(ok.state.usage.requests).toBe(1);
    const failing = new CompactingSession(null);
    await run(new Agent({ name: 'Failer', model: new ScriptedModel([[{ type: 'compaction' } as never]]) }), 'hi', { session: failing }).catch(() => undefined);
    expect(failing.calls).toHaveLength(0);
  });

  it('after a resumed approval, compaction starts from the session’s items (compactionMode: input)', async () => {
    const session = new CompactingSession(null);
    const approved = tool({ name: 'approved', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'ran here' });
    const model = new ScriptedModel([[functionCall('approved', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Approver', model, tools: [approved] });
    const paused = await run(agent, 'go', { session });
    expect(session.calls[0]![0]).toEqual({ responseId: 'scripted-response-1' });
    paused.state.approve(paused.interruptions[0]!);
    await run(agent, paused.state, { session });
    expect(session.calls).toHaveLength(2);
    expect(session.calls[1]![0]).toMatchObject({ compactionMode: 'input' });
    const next = await run(new Agent({ name: 'Fresh', model: new ScriptedModel([[assistantMessage('again')]]) }), 'more', { session });
    expect(next.finalOutput).toBe('again');
    expect(session.calls[2]![0]).not.toHaveProperty('compactionMode');
  });

  it('a compaction that throws is the run’s error (the items are already saved)', async () => {
    const session = Object.assign(new MemorySession(), { runCompaction: vi.fn(async () => Promise.reject(new Error('compact endpoint down'))) });
    const error = await run(new Agent({ name: 'Down', model: new ScriptedModel([[assistantMessage('done')]]) }), 'hi', { session }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('compact endpoint down');
    expect(await session.getItems()).toHaveLength(2);
  });
});
