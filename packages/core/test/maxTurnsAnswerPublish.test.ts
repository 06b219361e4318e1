import { describe, expect, it } from 'vitest';
import type { AgentInputItem, RunItem, RunStreamEvent } from '@baton/types';
import { ScriptedModel } from '@baton/testing';
import { Agent, MemorySession, RunContext, RunState, run } from '../src/index.js';

// An errorHandlers.maxTurns answer joins the run's items (result.newItems, the stream, the state)
// only once the run is in its session: a failed save never shows it, and while the save is
// pending a streamed result does not hold it yet. Once saved, it is shown once and saved once.

const ANSWER = 'handled max turn';
const answers = (items: ReadonlyArray<{ type?: string; role?: string }>) => items.filter((item) => item.type === 'message' && item.role === 'assistant').length;
const answerItems = (items: readonly RunItem[]) => items.filter((item) => item.type === 'message_output_item').length;

class GatedSession extends MemorySession {
  readonly saving: Promise<void>;
  #release!: () => void;
  #saving!: () => void;
  readonly #released = new Promise<void>((resolve) => (this.#release = resolve));
  constructor(private readonly fails: boolean) {
    super();
    this.saving = new Promise((resolve) => (this.#saving = resolve));
  }
  release(): void {
    this.#release();
  }
  override async addItems(items: AgentInputItem[]): Promise<void> {
    if (answers(items) > 0) {
      this.#saving();
      await this.#released;
      if (this.fails) throw new Error('session save failed');
    }
    await super.addItems(items);
  }
}

function setup(resumed: boolean) {
  const agent = new Agent({ name: 'A', model: new ScriptedModel([]) });
  const state = resumed ? new RunState(new RunContext(), 'x', agent, 0) : undefined;
  const options = { maxTurns: 0, errorHandlers: { maxTurns: () => ({ finalOutput: ANSWER }) } };
  return { agent, input: (state ?? 'x') as never, state, options };
}

describe('a max-turns answer is shown once the run is in its session', () => {
  const cases = [false, true].flatMap((resumed) => [false, true].map((fails) => [resumed, fails] as const));

  it.each(cases)('plain run (resumed: %s, save fails: %s)', async (resumed, fails) => {
    const { agent, input, state, options } = setup(resumed);
    const session = new GatedSession(fails);
    session.release();
    const outcome = run(agent, input, { ...options, session });
    if (fails) {
      await expect(outcome).rejects.toThrow('session save failed');
      expect(answerItems(state?._generatedItems ?? [])).toBe(0);
      expect(answers(await session.getItems())).toBe(0);
      return;
    }
    const result = await outcome;
    expect(result.finalOutput).toBe(ANSWER);
    expect(answerItems(result.newItems)).toBe(1);
    expect(answers(await session.getItems())).toBe(1);
  });

  it.each(cases)('streamed run (resumed: %s, save fails: %s): hidden while the save is pending', async (resumed, fails) => {
    const { agent, input, options } = setup(resumed);
    const session = new GatedSession(fails);
    const result = await run(agent, input, { ...options, session, stream: true });
    const events: RunStreamEvent[] = [];
    const reading = (async () => {
      for await (const event of result) events.push(event);
      await result.completed;
    })();
    await session.saving;
    expect(answerItems(result.newItems)).toBe(0);
    expect(events.filter((event) => event.type === 'run_item_stream_event')).toEqual([]);
    session.release();
    if (fails) {
      await expect(reading).rejects.toThrow('session save failed');
      expect(answerItems(result.newItems)).toBe(0);
      expect(events.filter((event) => event.type === 'run_item_stream_event')).toEqual([]);
      return;
    }
    await reading;
    expect(answerItems(result.newItems)).toBe(1);
    expect(events.filter((event) => event.type === 'run_item_stream_event')).toHaveLength(1);
    expect(answers(await session.getItems())).toBe(1);
  });

  it('without a session the answer is shown as before', async () => {
    const { agent, input, options } = setup(false);
    const result = await run(agent, input, options);
    expect(answerItems(result.newItems)).toBe(1);
  });
});
