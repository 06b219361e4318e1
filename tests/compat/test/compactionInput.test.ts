import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, type SdkUnderTest } from './sdks.js';

// A compaction item in the input, or one the model returned, stands for everything before it:
// each turn's model input starts at the latest one. Same on both SDKs.

const user = (text: string) => ({ type: 'message', role: 'user', content: text });
const compaction = (id: string) => ({ type: 'compaction', id, encrypted_content: `ciphertext ${id}` });

async function modelInputs({ sdk, testing }: SdkUnderTest, input: unknown[], modelCompacts: boolean) {
  const lookup = sdk.tool({ name: 'lookup', description: 'l', parameters: z.object({}), execute: async () => 'found' });
  const first = [...(modelCompacts ? [compaction('cmp_model')] : []), testing.functionCall('lookup', {}, { callId: 'c1' })];
  const model = new testing.ScriptedModel([{ output: first, usage: new sdk.Usage() } as never, [testing.assistantMessage('done')]]);
  await sdk.run(new sdk.Agent({ name: 'A', model, tools: [lookup] }), input as never);
  // Ids of generated items differ between the SDKs: compare types, call ids and texts.
  return model.calls.map((call) =>
    (call.request.input as Array<Record<string, unknown>>).map((item) => [item.type, item.callId ?? item.id ?? item.content]),
  );
}

describe('model input from the latest compaction item (same on both SDKs)', () => {
  it.each([
    ['a compaction item in the input', [user('old'), compaction('cmp_1'), user('new')], false],
    ['two compaction items in the input', [compaction('cmp_0'), user('old'), compaction('cmp_1'), user('new')], false],
    ['a compaction the model returned', [user('first')], true],
    ['no compaction', [user('one'), user('two')], false],
  ] as const)('%s', async (_label, input, modelCompacts) => {
    const both = await onBoth((under) => modelInputs(under, [...input], modelCompacts));
    expect(both.baton).toEqual(both.reference);
  });
});

async function sessionAfter({ sdk, testing }: SdkUnderTest, input: unknown[]) {
  const session = new sdk.MemorySession();
  await session.addItems([user('stored earlier')] as never);
  const model = new testing.ScriptedModel([[testing.assistantMessage('done')]]);
  await sdk.run(new sdk.Agent({ name: 'A', model }), input as never, { session });
  return (await session.getItems()).map((item) => [item.type, (item as { id?: string }).id ?? (item as { content?: unknown }).content]).slice(0, -1);
}

describe('a session given input that holds a compaction item (same on both SDKs)', () => {
  it.each([
    ['replaces its history from the compaction item on', [user('discarded'), compaction('cmp_1'), user('kept')]],
    ['appends input without one', [user('one')]],
  ] as const)('%s', async (_label, input) => {
    const both = await onBoth((under) => sessionAfter(under, [...input]));
    expect(both.baton).toEqual(both.reference);
  });
});
