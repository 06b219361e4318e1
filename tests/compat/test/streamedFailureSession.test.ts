import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, type SdkUnderTest } from './sdks.js';

// What a run that failed leaves in its session, streamed and plain: the reference's streamed runs
// keep the input they sent the model; its plain runs write nothing. The same program on both SDKs,
// a table of failures; the session's items are compared (ids and providers' extras left out).

type Failure = 'first-call' | 'second-call' | 'first-call-compaction';

interface Case {
  name: string;
  stream: boolean;
  failure: Failure;
}

const CASES: Case[] = [
  { name: 'streamed, the first model call fails', stream: true, failure: 'first-call' },
  { name: 'streamed, the model call after a tool turn fails', stream: true, failure: 'second-call' },
  { name: 'streamed, input with a compaction item, the model call fails', stream: true, failure: 'first-call-compaction' },
  { name: 'plain, the first model call fails', stream: false, failure: 'first-call' },
  { name: 'plain, the model call after a tool turn fails', stream: false, failure: 'second-call' },
];

/** An item as compared: its type, role and text or call, nothing the SDKs fill in differently. */
function shape(item: any): string {
  if (item.type === 'message' || item.role !== undefined) {
    const content = typeof item.content === 'string' ? item.content : (item.content ?? []).map((part: any) => part.text ?? part.type).join('|');
    return `${item.role}: ${content}`;
  }
  if (item.type === 'function_call') return `call ${item.name} ${item.callId}`;
  if (item.type === 'function_call_result') return `result ${item.callId}`;
  return item.type;
}

async function runCase({ sdk, testing }: SdkUnderTest, c: Case) {
  const session = new sdk.MemorySession();
  await session.addItems([{ role: 'user', content: 'before' } as never]);
  const step = sdk.tool({ name: 'step', description: 'A step.', parameters: z.object({}), execute: async () => 'stepped' });
  const failing = { type: 'error', error: new Error('provider down') } as never;
  const turns = c.failure === 'second-call' ? [[testing.functionCall('step', {}, { callId: 's1' })], failing] : [failing];
  const model = new testing.ScriptedModel(turns as never);
  const agent = new sdk.Agent({ name: 'A', model, tools: [step] });
  const input =
    c.failure === 'first-call-compaction'
      ? [{ role: 'user', content: 'discarded' }, { type: 'compaction', id: 'cmp_1', encrypted_content: 'ciphertext' }, { role: 'user', content: 'retained' }]
      : [{ role: 'user', content: 'hello' }];
  let error: unknown;
  try {
    if (c.stream) {
      const result: any = await sdk.run(agent, input as never, { stream: true, session });
      for await (const _ of result);
      await result.completed;
    } else {
      await sdk.run(agent, input as never, { session });
    }
  } catch (caught) {
    error = caught;
  }
  return { error: (error as Error | undefined)?.message, session: (await session.getItems()).map(shape) };
}

describe('the session of a run that failed (same on both SDKs)', () => {
  it.each(CASES)('$name', async (c) => {
    const both = await onBoth((under: SdkUnderTest) => runCase(under, c));
    expect(both.reference.error).toBe('provider down');
    expect(both.baton).toEqual(both.reference);
  });
});
