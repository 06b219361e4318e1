import { describe, expect, it, vi } from 'vitest';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// What the Chat Completions model sends for a history and makes of a completion, side by side: every
// item and content part (text, refusal, images, files, audio, reasoning, function and file search
// calls, unknown items) with its providerData, the warnings and strict-mode errors, and a spoken
// answer, whole or streamed.

type Json = Record<string, any>;

const request = (input: unknown) => ({ input, modelSettings: {}, tools: [], outputType: 'text', handoffs: [], tracing: false });
const said = (text: string, extra: Json = {}) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }], ...extra });
const call = (callId: string, extra: Json = {}) => ({ type: 'function_call', callId, name: 'f', arguments: '{"a":1}', status: 'completed', ...extra });
const result = (callId: string, output: unknown, extra: Json = {}) => ({ type: 'function_call_result', callId, name: 'f', status: 'completed', output, ...extra });
const reasoning = (text: string) => ({ type: 'reasoning', content: [], rawContent: [{ type: 'reasoning_text', text }] });
const user = (content: unknown, extra: Json = {}) => ({ role: 'user', content, ...extra });

/** The messages each SDK sends for `input` (or its error), and what it warned. */
async function sentOnBoth(input: unknown, options: Json = {}) {
  return onBoth(async ({ sdk }: SdkUnderTest) => {
    const calls: Json[] = [];
    const client = { chat: { completions: { create: async (body: Json) => (calls.push(body), { id: 'c', choices: [{ message: { content: 'ok' } }] }) } } };
    const model = new (sdk as any).OpenAIChatCompletionsModel(client, 'gpt-4.1', options);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const outcome = await outcomeOf(sdk.withTrace('t', () => model.getResponse(request(input))));
      const warnings = warn.mock.calls.map((args) => args.map(String).join(' ')).filter((line) => line.includes('Chat Completions'));
      return { sent: outcome.ok ? calls[0]!.messages : `error: ${(outcome.error as Error).message}`, warned: warnings.length > 0 };
    } finally {
      warn.mockRestore();
    }
  });
}

describe('Chat Completions history (same messages on both SDKs)', () => {
  it.each<[string, unknown]>([
    ['a string', 'hello'],
    ['assistant text parts', [user('hi'), { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'a' }, { type: 'output_text', text: 'b', providerData: { annotations: [] } }] }]],
    ['an assistant refusal', [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'no', providerData: { extra: 1 } }] }]],
    ['an assistant message with providerData', [said('a', { providerData: { name: 'bob', role: 'ignored', content: 'ignored' } })]],
    ['an empty assistant message', [{ type: 'message', role: 'assistant', status: 'completed', content: [] }]],
    ['text then a call', [said('a'), call('c1'), result('c1', 'r')]],
    ['a call then text (streamed order)', [call('c1'), said('a'), result('c1', 'r')]],
    ['two calls in one turn', [call('c1'), call('c2'), result('c1', 'r1'), result('c2', 'r2')]],
    ['a call with providerData', [call('c1', { providerData: { extra: 1, function: { strict: true, name: 'ignored' } } }), result('c1', 'r', { providerData: { name: 'n' } })]],
    ['a call with providerData, then text', [call('c1', { providerData: { extra: 1 } }), said('a', { providerData: { extra: 2 } }), result('c1', 'r')]],
    ['reasoning then a message', [reasoning('think'), said('a')]],
    ['reasoning then a call', [reasoning('think'), call('c1'), result('c1', 'r')]],
    ['a message, then reasoning', [said('a'), reasoning('think'), said('b')]],
    ['reasoning alone', [user('q'), reasoning('think')]],
    ['user parts', [user([{ type: 'input_text', text: 'x', providerData: { foo: 1 } }, { type: 'input_image', image: 'https://e/i.png', detail: 'low', providerData: { image_url: { detail: 'high' }, bar: 2 } }])]],
    ['user and system providerData', [{ role: 'system', content: 'sys', providerData: { name: 's' } }, user('x', { providerData: { name: 'u', phase: 'x' } })]],
    ['prompt-cache breakpoints', [user([{ type: 'input_text', text: 'x', promptCacheBreakpoint: { mode: 'explicit' } }])]],
    ['a file as a data URL', [user([{ type: 'input_file', file: ' data:application/pdf;base64,QQ== ', filename: 'a.pdf' }])]],
    ['a file by id, its name in providerData', [user([{ type: 'input_file', file: { id: 'file_1' }, providerData: { filename: 'b.pdf', extra: 1 } }])]],
    ['a file by URL', [user([{ type: 'input_file', file: 'https://e/a.pdf' }])]],
    ['a file without a source', [user([{ type: 'input_file' }])]],
    ['an image by file id', [user([{ type: 'input_image', image: { id: 'file_1' } }])]],
    ['user audio', [user([{ type: 'audio', audio: 'AAA', format: 'wav', providerData: { input_audio: { extra: 1 } } }])]],
    ['user audio, format in providerData', [user([{ type: 'audio', audio: 'AAA', providerData: { input_audio: { format: 'mp3' } } }])]],
    ['user audio without a format', [user([{ type: 'audio', audio: 'AAA' }])]],
    ['user audio by file id', [user([{ type: 'audio', audio: { id: 'file_1' }, format: 'wav' }])]],
    ['an assistant spoken answer', [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'audio', audio: 'AAA', providerData: { id: 'audio_1', transcript: 't' } }] }]],
    ['tool output parts', [call('c1'), result('c1', [{ type: 'input_text', text: 'a' }, { type: 'input_text', text: 'b' }])]],
    ['a text tool output', [call('c1'), result('c1', { type: 'text', text: 'r' })]],
    ['a file search call', [{ type: 'hosted_tool_call', name: 'file_search_call', status: 'completed', id: 'fs1', providerData: { queries: ['q'], extra: 1, function: { arguments: { limit: 2 }, strict: true } } }]],
    ['another hosted call', [{ type: 'hosted_tool_call', name: 'web_search_call', status: 'completed', id: 'ws1' }]],
    ['a computer call', [{ type: 'computer_call', callId: 'cc', status: 'completed', action: { type: 'screenshot' } }]],
    ['an unknown item', [said('a'), { type: 'unknown', providerData: { role: 'developer', content: 'x' } }, said('b')]],
    ['a namespaced call', [call('c1', { namespace: 'ns' })]],
    ['a compaction item', [{ type: 'compaction', encrypted_content: 'x' }]],
  ])('%s', async (_label, input) => {
    const both = await sentOnBoth(input);
    expect(both.baton).toEqual(both.reference);
  });

  it.each<[string, unknown]>([
    ['an assistant phase', [said('a', { phase: 'commentary' })]],
    ['a phase in providerData', [said('a', { providerData: { phase: 'final_answer' } })]],
    ['an invalid phase', [said('a', { phase: 'thinking' })]],
    ['an image tool output', [call('c1'), result('c1', { type: 'image', image: 'https://e/i.png' })]],
    ['tool output parts without text', [call('c1'), result('c1', [{ type: 'input_image', image: 'https://e/i.png' }])]],
    ['tool output parts mixing text and an image', [call('c1'), result('c1', [{ type: 'input_text', text: 'a' }, { type: 'input_image', image: 'https://e/i.png' }])]],
  ])('%s: a warning, or with strictFeatureValidation an error', async (_label, input) => {
    const lenient = await sentOnBoth(input);
    const strict = await sentOnBoth(input, { strictFeatureValidation: true });
    expect(lenient.baton).toEqual(lenient.reference);
    expect(strict.baton).toEqual(strict.reference);
  });
});

describe('Chat Completions answers (same output items on both SDKs)', () => {
  const completion = (message: Json, finishReason = 'stop') => ({ id: 'r', choices: [{ index: 0, message, finish_reason: finishReason }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  const chunk = (delta: Json) => ({ id: 'r', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] });
  const usage = { id: 'r', choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };

  it.each<[string, Json]>([
    ['a spoken answer', completion({ role: 'assistant', content: null, audio: { id: 'audio_1', data: 'AAA', transcript: 'hi', expires_at: 1 } })],
    ['a spoken answer cut at the token limit', completion({ role: 'assistant', content: null, audio: { id: 'audio_1', data: 'AAA' } }, 'length')],
    ['a spoken answer the content filter stopped', completion({ role: 'assistant', content: null, audio: { id: 'audio_1', data: 'AAA' } }, 'content_filter')],
    ['text beside audio', completion({ role: 'assistant', content: 'x', audio: { id: 'audio_1', data: 'AAA' } })],
    ['reasoning and text', completion({ role: 'assistant', content: 'x', reasoning: 'think' })],
  ])('%s', async (_label, answer) => {
    const both = await onBoth(async ({ sdk }) => {
      const model = new (sdk as any).OpenAIChatCompletionsModel({ chat: { completions: { create: async () => answer } } }, 'gpt-4.1');
      const outcome = await outcomeOf(sdk.withTrace('t', () => model.getResponse(request('hi'))));
      return outcome.ok ? (outcome.value as Json).output : `error: ${(outcome.error as Error).message}`;
    });
    expect(both.baton).toEqual(both.reference);
  });

  it.each<[string, Json[]]>([
    ['a spoken answer in pieces', [chunk({ role: 'assistant', audio: { id: 'audio_1', data: 'AA', transcript: 'h', expires_at: 5 } }), chunk({ audio: { data: 'BB', transcript: 'i' } }), chunk({ audio: null }), usage]],
    ['text beside audio', [chunk({ role: 'assistant', content: 'a', audio: { id: 'audio_1', data: 'AA' } }), usage]],
    ['audio that is not an object', [chunk({ role: 'assistant', audio: 'x' })]],
    ['audio data that is not text', [chunk({ role: 'assistant', audio: { data: 5 } })]],
    ['a transcript that is not text', [chunk({ role: 'assistant', audio: { data: 'A', transcript: 5 } })]],
    ['audio without data', [chunk({ role: 'assistant', audio: { id: 'audio_1', transcript: 'hi' } }), usage]],
  ])('streamed: %s', async (_label, chunks) => {
    const both = await onBoth(async ({ sdk }) => {
      const create = async () => (async function* () { yield* chunks; })();
      const model = new (sdk as any).OpenAIChatCompletionsModel({ chat: { completions: { create } } }, 'gpt-4.1');
      const events: Json[] = [];
      const outcome = await outcomeOf(sdk.withTrace('t', async () => { for await (const event of model.getStreamedResponse(request('hi'))) events.push(event); }));
      const done = events.find((event) => event.type === 'response_done');
      return outcome.ok ? done?.response.output : `error: ${(outcome.error as Error).message}`;
    });
    expect(both.baton).toEqual(both.reference);
  });
});
