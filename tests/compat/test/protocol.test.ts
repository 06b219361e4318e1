import { describe, expect, it } from 'vitest';
import { onBoth } from './sdks.js';

// `protocol`: the item schemas a ported program parses with, for the items Baton implements.

const samples: Array<[string, unknown]> = [
  ['user text', { role: 'user', content: 'hi' }],
  ['user parts', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }, { type: 'input_image', image: 'https://x/y.png', detail: 'low' }] }],
  ['user file by id', { role: 'user', content: [{ type: 'input_file', file: { id: 'file_1' } }] }],
  ['system', { role: 'system', content: 'be brief' }],
  ['assistant', { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok' }] }],
  ['assistant refusal', { role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'no' }] }],
  ['assistant without status', { role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }],
  ['function call', { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}', status: 'completed' }],
  ['function call without arguments', { type: 'function_call', callId: 'c1', name: 'f' }],
  ['function result text', { type: 'function_call_result', callId: 'c1', name: 'f', status: 'completed', output: { type: 'text', text: 'x' } }],
  ['function result string', { type: 'function_call_result', callId: 'c1', name: 'f', status: 'completed', output: 'x' }],
  ['function result part list', { type: 'function_call_result', callId: 'c1', name: 'f', status: 'completed', output: [{ type: 'input_text', text: 'see' }, { type: 'input_image', image: 'data:image/png;base64,AA' }] }],
  ['function result image', { type: 'function_call_result', callId: 'c1', name: 'f', status: 'completed', output: { type: 'image', image: 'https://x/y.png' } }],
  ['reasoning', { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'thinking' }] }],
  ['unknown', { type: 'unknown', id: 'u1', providerData: { raw: 1 } }],
  ['wrong role', { role: 'robot', content: 'hi' }],
  ['number content', { role: 'user', content: 42 }],
  ['bad status', { type: 'function_call_result', callId: 'c1', name: 'f', status: 'done', output: 'x' }],
];

describe('protocol schemas (same on both SDKs)', () => {
  it('ModelItem / MessageItem / OutputModelItem accept and refuse the same items', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const p = (sdk as any).protocol;
      return samples.map(([label, item]) => [label, p.ModelItem.safeParse(item).success, p.MessageItem.safeParse(item).success, p.OutputModelItem.safeParse(item).success]);
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('the single-item schemas parse to the same values', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const p = (sdk as any).protocol;
      return [
        p.UserMessageItem.parse(samples[1]![1]),
        p.FunctionCallItem.parse(samples[7]![1]),
        p.FunctionCallResultItem.parse(samples[11]![1]),
        p.ReasoningItem.parse(samples[13]![1]),
        p.UsageData.parse({ requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7, inputTokensDetails: [{ cached_tokens: 1 }] }),
        p.InputText.safeParse({ type: 'input_text' }).success,
      ];
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('tool outputs in history (same on both SDKs)', () => {
  it.each([
    ['a list of text and image parts', () => [{ type: 'text', text: 'look' }, { type: 'image', image: 'data:image/png;base64,AAAA', detail: 'high' }]],
    ['one image part', () => ({ type: 'image', image: 'https://example.com/cat.png' })],
    ['one text part', () => ({ type: 'text', text: 'plain' })],
    ['an object', () => ({ ok: true })],
  ])('%s: the function_call_result item in history and sent to the model', async (_label, output) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const { z } = await import('zod');
      const shot = sdk.tool({ name: 'shot', description: 's', parameters: z.object({}), execute: output as never });
      const model = new testing.ScriptedModel([[testing.functionCall('shot', {}, { callId: 'c1' })], [testing.assistantMessage('done')]]);
      const result = await sdk.run(new sdk.Agent({ name: 'A', model, tools: [shot] }), 'go');
      const pick = (item: unknown) => (item as { output: unknown }).output;
      return { history: pick(result.history[2]), sent: pick((model.calls[1]!.request.input as unknown[])[2]), parses: (sdk as any).protocol.ModelItem.safeParse(result.history[2]).success };
    });
    expect(both.baton).toEqual(both.reference);
  });
});
