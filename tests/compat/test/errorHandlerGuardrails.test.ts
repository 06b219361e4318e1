import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// An error handler's final output meets the output guardrails: which error the run rejects with,
// what the guardrail saw, what the session and the stream keep. The same program on both SDKs.

type Verdict = 'pass' | 'trip' | 'throw';
interface Case {
  readonly handler: 'maxTurns' | 'modelRefusal';
  readonly verdict: Verdict;
  readonly includeInHistory?: boolean;
  readonly stream?: boolean;
}

async function handledRun({ sdk, testing }: SdkUnderTest, c: Case) {
  const seen: unknown[] = [];
  const guardrail = {
    name: 'check',
    execute: async ({ agentOutput }: { agentOutput: unknown }) => {
      seen.push(agentOutput);
      if (c.verdict === 'throw') throw new Error('checker crashed');
      return { tripwireTriggered: c.verdict === 'trip', outputInfo: 'info' };
    },
  };
  const lookup = sdk.tool({ name: 'lookup', description: 'l', parameters: z.object({}), execute: async () => 'looked up' });
  const refusal = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'No.' }] };
  const script = c.handler === 'maxTurns' ? [[testing.functionCall('lookup', {}, { callId: 'c1' })]] : [[refusal]];
  const agent = new sdk.Agent({ name: 'A', model: new testing.ScriptedModel(script as never), tools: [lookup], outputGuardrails: [guardrail] } as never);
  const session = new sdk.MemorySession();
  const handler = () => ({ finalOutput: 'fallback', ...(c.includeInHistory === undefined ? {} : { includeInHistory: c.includeInHistory }) });
  const options = { session, maxTurns: 1, errorHandlers: { [c.handler]: handler } } as never;
  const streamed: string[] = [];
  const outcome = await outcomeOf(
    (async () => {
      if (!c.stream) return sdk.run(agent, 'go', options);
      const result = await sdk.run(agent, 'go', { ...(options as object), stream: true } as never);
      for await (const event of result) if (event.type === 'run_item_stream_event') streamed.push(event.item.type);
      await result.completed;
      return result;
    })(),
  );
  return {
    outcome: outcome.ok ? { finalOutput: outcome.value.finalOutput, items: outcome.value.newItems.map((item) => item.type) } : outcome.name,
    seen,
    streamed,
    session: (await session.getItems()).map((item) => ((item as { type?: string }).type === 'message' ? `message:${(item as { role: string }).role}` : (item as { type: string }).type)),
  };
}

describe('an error handler answer and the output guardrails (same on both SDKs)', () => {
  it.each<[string, Case]>([
    ['maxTurns, a trip', { handler: 'maxTurns', verdict: 'trip' }],
    ['maxTurns, a pass', { handler: 'maxTurns', verdict: 'pass' }],
    ['maxTurns, a throw', { handler: 'maxTurns', verdict: 'throw' }],
    ['maxTurns, a pass, not in history', { handler: 'maxTurns', verdict: 'pass', includeInHistory: false }],
    ['maxTurns, a trip, streamed', { handler: 'maxTurns', verdict: 'trip', stream: true }],
    ['maxTurns, a pass, streamed', { handler: 'maxTurns', verdict: 'pass', stream: true }],
    ['modelRefusal, a trip', { handler: 'modelRefusal', verdict: 'trip' }],
    ['modelRefusal, a pass', { handler: 'modelRefusal', verdict: 'pass' }],
  ])('%s', async (_label, c) => {
    const both = await onBoth((under) => handledRun(under, c));
    expect(both.baton).toEqual(both.reference);
  });
});
