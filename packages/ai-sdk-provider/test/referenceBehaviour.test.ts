import { describe, expect, it, vi } from 'vitest';
import type { LanguageModelV2, LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { UserError } from '@baton/types';
import { aisdk } from '../src/index.js';
import { collect, rejectionOf, request, stream, usage, v3Model, v4Generate, v4Model } from './helpers.js';

/** A hand-written AI SDK 5 (specification v2) model: flat usage, string finish reasons. */
function v2Model(content: unknown[], identity: { provider?: string } = {}): LanguageModelV2 & { calls: LanguageModelV2CallOptions[] } {
  const calls: LanguageModelV2CallOptions[] = [];
  const model = {
    specificationVersion: 'v2' as const,
    provider: identity.provider ?? 'legacy.chat',
    modelId: 'legacy-1',
    supportedUrls: {},
    doGenerate: async (options: LanguageModelV2CallOptions) => {
      calls.push(options);
      return { content, finishReason: 'stop', usage: { inputTokens: Number.NaN, outputTokens: 4, totalTokens: Number.NaN }, warnings: [], response: { id: 'r2' } };
    },
    doStream: async () => {
      throw new Error('not scripted');
    },
  };
  return Object.assign(model as unknown as LanguageModelV2, { calls });
}

describe('AI SDK 5 (v2) models', () => {
  it('run an agent: flat usage read (NaN as 0), v2 provider tools are provider-defined', async () => {
    const model = v2Model([{ type: 'text', text: 'Hi from AI SDK 5' }]);
    const response = await aisdk(model).getResponse(
      request({ tools: [{ type: 'hosted_tool', name: 'search', providerData: { aiSdkProviderTool: { id: 'legacy.search', args: {} } } }] }),
    );
    expect(response.output).toMatchObject([{ type: 'message', content: [{ type: 'output_text', text: 'Hi from AI SDK 5' }] }]);
    expect(response.usage).toMatchObject({ inputTokens: 0, outputTokens: 4, totalTokens: 4 });
    expect(model.calls[0]?.tools).toEqual([{ type: 'provider-defined', id: 'legacy.search', name: 'search', args: {} }]);
    expect(aisdk(model).specificationVersion).toBe('v2');
  });

  it('refuse prompt cache retention, which AI SDK 5 has no option for', async () => {
    const model = v2Model([], { provider: 'openai.responses' });
    const error = await rejectionOf(aisdk(model).getResponse(request({ modelSettings: { promptCacheRetention: '24h' } as never })));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/prompt cache retention requires specificationVersion v3 or v4/);
  });
});

describe('text split over parts', () => {
  it('keeps every part: text around reasoning is two messages whose text the run joins', async () => {
    const model = v4Model([
      v4Generate([
        { type: 'text', text: 'first' },
        { type: 'reasoning', text: 'thinking' },
        { type: 'text', text: 'second' },
      ]),
    ]);
    const response = await aisdk(model).getResponse(request());
    expect(response.output.map((item) => (item.type === 'message' ? item.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('') : item.type))).toEqual([
      'first',
      'reasoning',
      'second',
    ]);
  });

  it('joins text across sources and empty reasoning into one output_text, stamped with the response metadata', async () => {
    const model = v4Model([
      v4Generate(
        [
          { type: 'text', text: 'Hello ' },
          { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' },
          { type: 'reasoning', text: '' },
          { type: 'text', text: 'world' },
        ],
        { providerMetadata: { acme: { region: 'eu' } } },
      ),
    ]);
    const response = await aisdk(model).getResponse(request());
    expect(response.output).toEqual([
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello world' }], providerData: { model: 'fake.chat:fake-model', acme: { region: 'eu' } } },
    ]);
  });

  it('transformOutputText sees the whole text once and its result is cut back into the parts', async () => {
    const transformOutputText = vi.fn((text: string) => text.replace(/^```json\n|\n```$/g, ''));
    const model = v4Model([
      v4Generate([
        { type: 'text', text: '```json\n{"city":' },
        { type: 'reasoning', text: 'checking' },
        { type: 'text', text: '"Lisbon"}\n```' },
      ]),
    ]);
    const response = await aisdk(model, { transformOutputText }).getResponse(request());
    expect(transformOutputText).toHaveBeenCalledOnce();
    expect(transformOutputText).toHaveBeenCalledWith('```json\n{"city":"Lisbon"}\n```', expect.objectContaining({ stream: false, provider: 'fake.chat', specificationVersion: 'v4' }));
    const texts = response.output.flatMap((item) => (item.type === 'message' ? item.content.map((part) => (part.type === 'output_text' ? part.text : '')) : []));
    expect(texts.join('')).toBe('{"city":"Lisbon"}');
    expect(JSON.parse(texts.join(''))).toEqual({ city: 'Lisbon' });
  });

  it('transformOutputText runs on the streamed response_done, not on the deltas, and must return a string', async () => {
    const parts = [
      { type: 'text-delta' as const, id: 'a', delta: 'x-' },
      { type: 'text-delta' as const, id: 'b', delta: 'y' },
      { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: 'stop' }, usage: usage(1, 1) },
    ];
    const events = await collect(aisdk(v4Model([stream(parts)]), { transformOutputText: (text) => text.toUpperCase() }).getStreamedResponse(request()));
    expect(events.filter((event) => event.type === 'output_text_delta')).toEqual([
      { type: 'output_text_delta', delta: 'x-', itemId: 'a' },
      { type: 'output_text_delta', delta: 'y', itemId: 'a' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'response_done', response: { output: [{ id: 'a', content: [{ text: 'X-Y' }] }] } });
    const bad = aisdk(v4Model([v4Generate([{ type: 'text', text: 'x' }])]), { transformOutputText: () => 42 as never });
    expect(await rejectionOf(bad.getResponse(request()))).toBeInstanceOf(UserError);
  });
});

describe('request details the reference pins', () => {
  it('maps promptCacheRetention for OpenAI Responses models (v3 / v4), not for others', async () => {
    const responses = v3Model([{ kind: 'generate', result: { content: [], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(0, 0), warnings: [] } }], { provider: 'openai.responses' });
    await aisdk(responses).getResponse(request({ modelSettings: { promptCacheRetention: 'in-memory' } as never }));
    expect(responses.calls[0]?.providerOptions).toEqual({ openai: { promptCacheRetention: 'in_memory' } });
    const chat = v4Model([v4Generate([])], { provider: 'openai.chat' });
    await aisdk(chat).getResponse(request({ modelSettings: { promptCacheRetention: '24h' } as never }));
    expect(chat.calls[0]?.providerOptions).toBeUndefined();
  });

  it('an empty tool input for an object schema becomes "{}"', async () => {
    const model = v4Model([v4Generate([{ type: 'tool-call', toolCallId: 'c1', toolName: 'ping', input: '' }])]);
    const tools = [{ type: 'function' as const, name: 'ping', description: 'p', parameters: { type: 'object' as const, properties: {}, required: [], additionalProperties: false }, strict: true }];
    const response = await aisdk(model).getResponse(request({ tools }));
    expect(response.output).toMatchObject([{ type: 'function_call', name: 'ping', arguments: '{}' }]);
  });

  it('a default-policy collision between plain function tools offers the later one, with a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const model = v4Model([v4Generate([])]);
    const tool = (description: string) => ({ type: 'function' as const, name: 'lookup', description, parameters: { type: 'object' as const, properties: {}, required: [], additionalProperties: false }, strict: true });
    await aisdk(model).getResponse(request({ tools: [tool('first'), tool('second')] }));
    expect(model.calls[0]?.tools).toMatchObject([{ name: 'lookup', description: 'second' }]);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/tool name collision detected\. .*Only the current dispatch winner will be exposed/));
    warn.mockRestore();
  });
});

describe('response details the reference pins', () => {
  it('a tool call sent again replaces the first in place and does not split the text around it', async () => {
    const parts = [
      { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'lookup', input: '{"v":1}' },
      { type: 'text-delta' as const, id: 't1', delta: 'Hello ' },
      { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'lookup', input: '{"v":2}' },
      { type: 'text-delta' as const, id: 't2', delta: 'world' },
      { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: 'stop' }, usage: usage(1, 1) },
    ];
    const events = await collect(aisdk(v4Model([stream(parts)])).getStreamedResponse(request()));
    expect(events.at(-1)).toMatchObject({
      type: 'response_done',
      response: { output: [{ type: 'function_call', callId: 'c1', arguments: '{"v":2}' }, { type: 'message', id: 't1', content: [{ text: 'Hello world' }] }] },
    });
  });

  it('preserveRawUsage returns the usage object as sent, read when it arrived', async () => {
    const parts = [{ type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: 'stop' }, usage: usage(5, 8, { cacheRead: 1 }) }];
    const events = await collect(
      (async function* () {
        for await (const event of aisdk(v4Model([stream(parts)])).getStreamedResponse(request({ modelSettings: { preserveRawUsage: true } }))) {
          // A consumer that changes the part it was given does not change the response.
          if (event.type === 'model' && (event.event as { type: string }).type === 'finish') (event.event as { usage: { inputTokens: { cacheRead: number } } }).usage.inputTokens.cacheRead = 99;
          yield event;
        }
      })(),
    );
    expect(events.at(-1)).toMatchObject({ type: 'response_done', response: { usage: { inputTokens: 5, inputTokensDetails: { cached_tokens: 1 } }, rawUsage: { inputTokens: { total: 5, cacheRead: 1 } } } });
    const generated = await aisdk(v4Model([v4Generate([], { usage: usage(2, 3) })])).getResponse(request({ modelSettings: { preserveRawUsage: true } }));
    expect(generated.rawUsage).toMatchObject({ inputTokens: { total: 2 }, outputTokens: { total: 3 } });
    // A usage object that is not plain data cannot be kept faithfully: no rawUsage, the usage is still read.
    const classy = Object.assign(Object.create({ provider: 'x' }) as object, usage(4, 1));
    const unkept = await aisdk(v4Model([v4Generate([], { usage: classy as ReturnType<typeof usage> })])).getResponse(request({ modelSettings: { preserveRawUsage: true } }));
    expect(unkept.rawUsage).toBeUndefined();
    expect(unkept.usage).toMatchObject({ inputTokens: 4, outputTokens: 1 });
  });

  it('a call of a tool the request did not offer is logged without its name; a namespaced call names its namespace apart', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const model = v4Model([
      v4Generate([
        { type: 'tool-call', toolCallId: 'c1', toolName: 'mystery', input: '{}' },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'crm.lookup', input: '' },
      ]),
    ]);
    const lookup = { type: 'function' as const, name: 'lookup', namespace: 'crm', description: 'd', parameters: { type: 'object' as const, properties: {}, required: [], additionalProperties: false }, strict: true };
    const response = await aisdk(model).getResponse(request({ tools: [lookup] }));
    expect(warn).toHaveBeenCalledWith('Received tool call for an unknown tool. Tool name is redacted.');
    expect(response.output[1]).toMatchObject({ type: 'function_call', name: 'lookup', namespace: 'crm', arguments: '{}' });
    expect(model.calls[0]?.tools).toMatchObject([{ name: 'crm.lookup' }]);
    warn.mockRestore();
  });
});
