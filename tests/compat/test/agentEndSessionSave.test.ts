import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// agent_end and the session's final save: whether the hook is heard, what the session held when it
// was, and how the run ends when the save fails. The same program on both SDKs.

interface Case {
  readonly source: 'model' | 'maxTurns handler';
  readonly stream: boolean;
  readonly saveFails: boolean;
}

async function program({ sdk, testing }: SdkUnderTest, c: Case) {
  const stored: unknown[] = [];
  const session = {
    getSessionId: async () => 'ended',
    getItems: async () => [...stored],
    addItems: async (items: unknown[]) => {
      if (c.saveFails) throw new Error('session save failed');
      stored.push(...items);
    },
    popItem: async () => stored.pop(),
    clearSession: async () => void (stored.length = 0),
  };
  const lookup = sdk.tool({ name: 'lookup', description: 'l', parameters: z.object({}), execute: async () => 'found' });
  const script = c.source === 'model' ? [[testing.assistantMessage('the answer')]] : [[testing.functionCall('lookup', {}, { callId: 'c1' })]];
  const agent = new sdk.Agent({ name: 'A', model: new testing.ScriptedModel(script as never), tools: [lookup] } as never);
  const runner = new sdk.Runner();
  const heard: Array<{ hook: string; stored: number }> = [];
  runner.on('agent_end', () => void heard.push({ hook: 'runner', stored: stored.length }));
  (agent as { on: (event: string, listener: () => void) => void }).on('agent_end', () => void heard.push({ hook: 'agent', stored: stored.length }));
  const options = { session, ...(c.source === 'model' ? {} : { maxTurns: 1, errorHandlers: { maxTurns: () => ({ finalOutput: 'handled' }) } }) } as never;
  // The answer's item events the stream showed (a failed save shows none, as on the reference).
  let shown = 0;
  const outcome = await outcomeOf(
    (async () => {
      if (!c.stream) return (await runner.run(agent, 'go', options)).finalOutput;
      const result = await runner.run(agent, 'go', { ...(options as object), stream: true } as never);
      for await (const event of result) if (event.type === 'run_item_stream_event' && event.name === 'message_output_created') shown += 1;
      await result.completed;
      return result.finalOutput;
    })(),
  );
  return {
    outcome: outcome.ok ? outcome.value : (outcome.error as Error).message,
    heard: heard.sort((a, b) => a.hook.localeCompare(b.hook)),
    stored: stored.length,
    shown,
  };
}

describe('agent_end is heard once the run is in its session (same on both SDKs)', () => {
  const cases: Case[] = [];
  for (const source of ['model', 'maxTurns handler'] as const) for (const stream of [false, true]) for (const saveFails of [false, true]) cases.push({ source, stream, saveFails });
  it.each(cases.map((c) => [`${c.source}, streamed: ${c.stream}, save fails: ${c.saveFails}`, c] as const))('%s', async (_label, c) => {
    const both = await onBoth((under) => program(under, c));
    expect(both.baton).toEqual(both.reference);
  });
});
