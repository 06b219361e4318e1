import { describe, expect, it } from 'vitest';
import { Agent, run, tool } from '@baton/core';
import type { AgentInputItem } from '@baton/types';
import { z } from 'zod';
import { aisdk } from '../src/index.js';
import { request, stream, usage, v3Generate, v3Model, v4Generate, v4Model } from './helpers.js';

const getWeather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: sunny`,
});

/** What the second request's prompt must carry back: the signed thinking block and the signed tool call, then the result. */
const SECOND_PROMPT = [
  { role: 'system', content: 'Use tools.' },
  { role: 'user', content: [{ type: 'text', text: 'Weather in Lisbon?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'I should call the tool.', providerOptions: { anthropic: { signature: 'sig-abc' } } },
      { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', input: { city: 'Lisbon' }, providerOptions: { google: { thoughtSignature: 'ts-call' } } },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'get_weather', output: { type: 'text', value: 'Lisbon: sunny' } }] },
];

describe('reasoning and tool-call metadata round trip through a run', () => {
  it('v4, non-streamed: the next request sends the signatures back as providerOptions', async () => {
    const model = v4Model([
      v4Generate(
        [
          { type: 'reasoning', text: 'I should call the tool.', providerMetadata: { anthropic: { signature: 'sig-abc' } } },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', input: '{"city":"Lisbon"}', providerMetadata: { google: { thoughtSignature: 'ts-call' } } },
        ],
        { finishReason: { unified: 'tool-calls', raw: 'tool_use' }, response: { id: 'resp_1' } },
      ),
      v4Generate([{ type: 'text', text: 'Sunny in Lisbon.' }]),
    ]);
    const agent = new Agent({ name: 'Weather', instructions: 'Use tools.', model: aisdk(model), tools: [getWeather] });
    const result = await run(agent, 'Weather in Lisbon?');
    expect(result.finalOutput).toBe('Sunny in Lisbon.');
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]?.prompt).toEqual(SECOND_PROMPT);
  });

  it('v4, streamed: signatures that arrive on stream deltas go back the same way', async () => {
    const model = v4Model([
      stream([
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: 'resp_1' },
        { type: 'reasoning-start', id: '0' },
        { type: 'reasoning-delta', id: '0', delta: 'I should call the tool.' },
        { type: 'reasoning-delta', id: '0', delta: '', providerMetadata: { anthropic: { signature: 'sig-abc' } } },
        { type: 'reasoning-end', id: '0' },
        { type: 'tool-input-start', id: 'toolu_1', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'toolu_1', delta: '{"city":"Lisbon"}' },
        { type: 'tool-input-end', id: 'toolu_1' },
        { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', input: '{"city":"Lisbon"}', providerMetadata: { google: { thoughtSignature: 'ts-call' } } },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage(10, 5) },
      ]),
      stream([
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Sunny in Lisbon.' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage(20, 5) },
      ]),
    ]);
    const agent = new Agent({ name: 'Weather', instructions: 'Use tools.', model: aisdk(model), tools: [getWeather] });
    const result = await run(agent, 'Weather in Lisbon?', { stream: true });
    for await (const _ of result) void _;
    await result.completed;
    expect(result.finalOutput).toBe('Sunny in Lisbon.');
    expect(model.calls[1]?.prompt).toEqual(SECOND_PROMPT);
  });

  it('v3: the same round trip', async () => {
    const model = v3Model([
      v3Generate(
        [
          { type: 'reasoning', text: 'I should call the tool.', providerMetadata: { anthropic: { signature: 'sig-abc' } } },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', input: '{"city":"Lisbon"}', providerMetadata: { google: { thoughtSignature: 'ts-call' } } },
        ],
        { finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
      ),
      v3Generate([{ type: 'text', text: 'Sunny in Lisbon.' }]),
    ]);
    const agent = new Agent({ name: 'Weather', instructions: 'Use tools.', model: aisdk(model), tools: [getWeather] });
    const result = await run(agent, 'Weather in Lisbon?');
    expect(result.finalOutput).toBe('Sunny in Lisbon.');
    expect(model.calls[1]?.prompt).toEqual(SECOND_PROMPT);
  });

  it("Gemini's thought signature on a text part goes back on that text part", async () => {
    const model = v4Model([
      v4Generate([{ type: 'text', text: 'Hi.', providerMetadata: { google: { thoughtSignature: 'ts-text' } } }]),
      v4Generate([{ type: 'text', text: 'Bye.' }]),
    ]);
    const agent = new Agent({ name: 'A', model: aisdk(model) });
    const first = await run(agent, 'Hello');
    await run(agent, [...(first.history as AgentInputItem[]), { role: 'user', content: 'Bye' }]);
    expect(model.calls[1]?.prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hi.', providerOptions: { google: { thoughtSignature: 'ts-text' } } }] },
      { role: 'user', content: [{ type: 'text', text: 'Bye' }] },
    ]);
  });
});

describe('other kept output on the next request', () => {
  it('provider-executed calls go back as tool-call + tool-result parts; files and custom content as assistant parts; refusals made up for a content filter stay out', async () => {
    const model = v4Model([
      v4Generate(
        [
          { type: 'tool-call', toolCallId: 'srv_1', toolName: 'web_search', input: '{"query":"baton"}', providerExecuted: true, providerMetadata: { anthropic: { m: 1 } } },
          { type: 'tool-result', toolCallId: 'srv_1', toolName: 'web_search', result: [{ url: 'https://example.com' }] },
          { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AQID' } },
          { type: 'custom', kind: 'fake.compaction', providerMetadata: { fake: { blob: 'b' } } },
          { type: 'text', text: 'Found it.' },
        ],
        { finishReason: { unified: 'content-filter', raw: 'SAFETY' } },
      ),
      v4Generate([{ type: 'text', text: 'ok' }]),
    ]);
    const baton = aisdk(model);
    const first = await baton.getResponse(request({ input: 'Search' }));
    await baton.getResponse(request({ input: [{ role: 'user', content: 'Search' }, ...first.output] }));
    expect(model.calls[1]?.prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Search' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'srv_1', toolName: 'web_search', input: { query: 'baton' }, providerExecuted: true, providerOptions: { anthropic: { m: 1 } } },
          { type: 'tool-result', toolCallId: 'srv_1', toolName: 'web_search', output: { type: 'json', value: [{ url: 'https://example.com' }] }, providerOptions: { anthropic: { m: 1 } } },
          { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AQID' } },
          { type: 'custom', kind: 'fake.compaction', providerOptions: { fake: { blob: 'b' } } },
          { type: 'text', text: 'Found it.' },
        ],
      },
    ]);
  });

  it('hosted calls and unknown items from another provider are left out', async () => {
    const model = v4Model([v4Generate([{ type: 'text', text: 'ok' }])]);
    await aisdk(model).getResponse(
      request({
        input: [
          { role: 'user', content: 'q' },
          { type: 'hosted_tool_call', id: 'ws_1', name: 'web_search_call', status: 'completed', providerData: { type: 'web_search_call', action: { query: 'q' } } },
          { type: 'unknown', providerData: { type: 'compaction', encrypted_content: 'x' } },
          { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'a' }] },
        ],
      }),
    );
    expect(model.calls[0]?.prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
    ]);
  });

  it('a v3 model gets a kept file back as raw data; v4-only content stays out', async () => {
    const model = v3Model([v3Generate([{ type: 'text', text: 'ok' }])]);
    const stamp = { model: 'fake.chat:fake-model' };
    await aisdk(model).getResponse(
      request({
        input: [
          { type: 'unknown', providerData: { ...stamp, aiSdkContent: { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AQID' } } } },
          { type: 'unknown', providerData: { ...stamp, aiSdkContent: { type: 'custom', kind: 'fake.compaction' } } },
        ],
      }),
    );
    expect(model.calls[0]?.prompt).toEqual([{ role: 'assistant', content: [{ type: 'file', mediaType: 'image/png', data: 'AQID' }] }]);
  });
});
