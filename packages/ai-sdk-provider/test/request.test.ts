import { describe, expect, it } from 'vitest';
import { UserError, type AgentInputItem, type HostedTool, type ModelRequest, type SerializedTool } from '@baton/types';
import { aisdk, aisdkProviderTool } from '../src/index.js';
import { rejectionOf, request, v3Generate, v3Model, v4Generate, v4Model } from './helpers.js';

const citySchema = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const PDF = 'data:application/pdf;base64,JVBERi0xLjQ=';

/** The call options a v4 (or v3) model receives for a request. */
async function optionsFor(overrides: Partial<ModelRequest>, spec: 'v4' | 'v3' = 'v4', identity?: { provider?: string; modelId?: string }) {
  if (spec === 'v4') {
    const model = v4Model([v4Generate([{ type: 'text', text: 'ok' }])], identity);
    await aisdk(model).getResponse(request(overrides));
    return model.calls[0] as unknown as Record<string, unknown>;
  }
  const model = v3Model([v3Generate([{ type: 'text', text: 'ok' }])], identity);
  await aisdk(model).getResponse(request(overrides));
  return model.calls[0] as unknown as Record<string, unknown>;
}

const functionTool = { type: 'function' as const, name: 'get_weather', description: 'Weather for a city', parameters: citySchema, strict: true };
const handoff = { toolName: 'transfer_to_billing', toolDescription: 'Hand off to Billing', inputJsonSchema: { type: 'object' as const, properties: {}, required: [], additionalProperties: false }, strictJsonSchema: true };

/** A hosted tool as the run loop hands it to the model. */
function serialized(tool: HostedTool): SerializedTool {
  return { type: tool.type, name: tool.name, providerData: tool.providerData };
}

interface Case {
  readonly name: string;
  readonly spec?: 'v4' | 'v3';
  readonly request: Partial<ModelRequest>;
  readonly expected: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'system instructions become a system message before a string input',
    request: { systemInstructions: 'Be brief.', input: 'Hello' },
    expected: { prompt: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'Hello' }] }] },
  },
  {
    name: 'user content parts: text, images and files (v4 tagged data)',
    request: {
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look', providerData: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
            { type: 'input_image', image: PNG },
            { type: 'input_image', image: 'https://example.com/cat.jpg' },
            { type: 'input_image', image: { id: 'file_img' } },
            { type: 'input_file', file: PDF, filename: 'a.pdf' },
            { type: 'input_file', file: { url: 'https://example.com/report.pdf' } },
            { type: 'input_file', file: { id: 'file_doc' }, filename: 'notes.txt' },
          ],
        },
      ],
    },
    expected: {
      prompt: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look', providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
            { type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' },
            { type: 'file', data: { type: 'url', url: new URL('https://example.com/cat.jpg') }, mediaType: 'image/jpeg' },
            { type: 'file', data: { type: 'reference', reference: { fake: 'file_img' } }, mediaType: 'image' },
            { type: 'file', data: { type: 'data', data: 'JVBERi0xLjQ=' }, mediaType: 'application/pdf', filename: 'a.pdf' },
            { type: 'file', data: { type: 'url', url: new URL('https://example.com/report.pdf') }, mediaType: 'application/pdf' },
            { type: 'file', data: { type: 'reference', reference: { fake: 'file_doc' } }, mediaType: 'text/plain', filename: 'notes.txt' },
          ],
        },
      ],
    },
  },
  {
    name: 'user content parts (v3 raw data and URLs)',
    spec: 'v3',
    request: {
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image: PNG },
            { type: 'input_image', image: 'https://example.com/cat' },
            { type: 'input_file', file: 'JVBERi0xLjQ=', filename: 'raw.pdf' },
          ],
        },
      ],
    },
    expected: {
      prompt: [
        {
          role: 'user',
          content: [
            { type: 'file', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
            { type: 'file', data: new URL('https://example.com/cat'), mediaType: 'image/*' },
            { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'raw.pdf' },
          ],
        },
      ],
    },
  },
  {
    name: 'one model turn (reasoning, message, calls) becomes one assistant message; results one tool message',
    request: {
      input: [
        { role: 'user', content: 'Weather in Lisbon and Porto?' },
        { type: 'reasoning', content: [{ type: 'input_text', text: 'Two cities.' }] },
        { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', callId: 'c1', name: 'get_weather', arguments: '{"city":"Lisbon"}' },
        { type: 'function_call', callId: 'c2', name: 'get_weather', arguments: '{"city":"Porto"' },
        { type: 'function_call_result', callId: 'c1', name: 'get_weather', status: 'completed', output: 'Sunny' },
        { type: 'function_call_result', callId: 'c2', name: 'get_weather', status: 'completed', output: { type: 'text', text: 'Rain' } },
        { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Sunny and rain.' }] },
        { role: 'user', content: 'Thanks' },
      ],
    },
    expected: {
      prompt: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Lisbon and Porto?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Two cities.' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Lisbon' } },
            // Arguments that are not JSON go back as {} (vendors reject a non-object input).
            { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: {} },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'text', value: 'Sunny' } },
            { type: 'tool-result', toolCallId: 'c2', toolName: 'get_weather', output: { type: 'text', value: 'Rain' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Sunny and rain.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
      ],
    },
  },
  {
    name: 'tool outputs with images and files become `content` (v4 file parts)',
    request: {
      input: [
        { type: 'function_call', callId: 'c1', name: 'shot', arguments: '{}' },
        { type: 'function_call_result', callId: 'c1', name: 'shot', status: 'completed', output: { type: 'image', image: PNG } },
        { type: 'function_call', callId: 'c2', name: 'shot', arguments: '{}' },
        {
          type: 'function_call_result',
          callId: 'c2',
          name: 'shot',
          status: 'completed',
          output: [
            { type: 'input_text', text: 'Here:' },
            { type: 'input_image', image: 'https://example.com/a.png' },
            { type: 'input_file', file: PDF, filename: 'r.pdf' },
          ],
        },
      ],
    },
    expected: {
      prompt: [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'shot', input: {} }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'shot', output: { type: 'content', value: [{ type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' }] } }],
        },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'shot', input: {} }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c2',
              toolName: 'shot',
              output: {
                type: 'content',
                value: [
                  { type: 'text', text: 'Here:' },
                  { type: 'file', data: { type: 'url', url: new URL('https://example.com/a.png') }, mediaType: 'image/png' },
                  { type: 'file', data: { type: 'data', data: 'JVBERi0xLjQ=' }, mediaType: 'application/pdf', filename: 'r.pdf' },
                ],
              },
            },
          ],
        },
      ],
    },
  },
  {
    name: 'tool outputs with images (v3 image-data / image-url / file-data parts)',
    spec: 'v3',
    request: {
      input: [
        {
          type: 'function_call_result',
          callId: 'c1',
          name: 'shot',
          status: 'completed',
          output: [
            { type: 'text', text: 'Two:' },
            { type: 'image', image: PNG },
            { type: 'input_image', image: 'https://example.com/b.png' },
            { type: 'input_file', file: PDF, filename: 'r.pdf' },
          ],
        },
      ],
    },
    expected: {
      prompt: [
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'shot',
              output: {
                type: 'content',
                value: [
                  { type: 'text', text: 'Two:' },
                  { type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
                  { type: 'image-url', url: 'https://example.com/b.png' },
                  { type: 'file-data', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'r.pdf' },
                ],
              },
            },
          ],
        },
      ],
    },
  },
  {
    name: 'function tools and handoffs become function tools with their JSON schemas',
    request: { tools: [functionTool], handoffs: [handoff] },
    expected: {
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather for a city', inputSchema: citySchema, strict: true },
        { type: 'function', name: 'transfer_to_billing', description: 'Hand off to Billing', inputSchema: handoff.inputJsonSchema, strict: true },
      ],
    },
  },
  {
    name: 'an AI SDK provider tool (aisdkProviderTool) becomes a provider tool',
    request: { tools: [serialized(aisdkProviderTool({ type: 'provider', id: 'anthropic.web_search_20250305', args: { maxUses: 2 } }, { name: 'web_search' }))] },
    expected: { tools: [{ type: 'provider', id: 'anthropic.web_search_20250305', name: 'web_search', args: { maxUses: 2 } }] },
  },
  ...(['auto', 'required', 'none'] as const).map(
    (choice): Case => ({ name: `toolChoice '${choice}'`, request: { tools: [functionTool], modelSettings: { toolChoice: choice } }, expected: { toolChoice: { type: choice } } }),
  ),
  {
    name: 'toolChoice naming a tool (or a handoff)',
    request: { tools: [functionTool], handoffs: [handoff], modelSettings: { toolChoice: 'transfer_to_billing' } },
    expected: { toolChoice: { type: 'tool', toolName: 'transfer_to_billing' } },
  },
  {
    name: 'structured output becomes responseFormat json with the schema and its name',
    request: { outputType: { type: 'json_schema', name: 'weather', strict: true, schema: citySchema } },
    expected: { responseFormat: { type: 'json', schema: citySchema, name: 'weather' } },
  },
  {
    name: 'sampling settings and maxTokens',
    request: { modelSettings: { temperature: 0.2, topP: 0.9, maxTokens: 123, presencePenalty: 0.1, frequencyPenalty: 0.3 } },
    expected: { temperature: 0.2, topP: 0.9, maxOutputTokens: 123, presencePenalty: 0.1, frequencyPenalty: 0.3 },
  },
  {
    name: 'reasoning effort is v4 `reasoning`',
    request: { modelSettings: { reasoning: { effort: 'low' } } },
    expected: { reasoning: 'low' },
  },
  {
    name: 'reasoning effort on v3 goes to the provider options as reasoningEffort',
    spec: 'v3',
    request: { modelSettings: { reasoning: { effort: 'high' }, providerData: { providerOptions: { fake: { user: 1 }, other: { x: true } } } } },
    expected: { providerOptions: { fake: { reasoningEffort: 'high', user: 1 }, other: { x: true } } },
  },
  {
    name: 'modelSettings.providerData is spread over the call options (providerOptions, topK, seed, headers); owned options stay',
    request: {
      input: 'kept',
      modelSettings: {
        temperature: 1,
        providerData: { providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } }, topK: 3, seed: 7, stopSequences: ['END'], headers: { 'x-a': 'b' }, temperature: 0.5, prompt: 'ignored' },
      },
    },
    expected: {
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'kept' }] }],
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
      topK: 3,
      seed: 7,
      stopSequences: ['END'],
      headers: { 'x-a': 'b' },
      temperature: 0.5,
    },
  },
];

describe('request mapping', () => {
  it.each(cases)('$name', async ({ request: overrides, expected, spec }) => {
    const options = await optionsFor(overrides, spec);
    expect(options).toMatchObject(expected);
    // Exact prompts and tools: nothing extra was sent.
    for (const key of ['prompt', 'tools', 'toolChoice', 'responseFormat', 'providerOptions']) if (key in expected) expect(options[key]).toEqual(expected[key]);
  });

  it('leaves out what the request does not set (no tools, toolChoice, responseFormat, reasoning, providerOptions)', async () => {
    const options = await optionsFor({});
    expect(Object.keys(options).sort()).toEqual(['abortSignal', 'prompt']);
  });

  it('replays provider data only to the model that wrote it', async () => {
    const input: AgentInputItem[] = [
      { type: 'reasoning', content: [{ type: 'input_text', text: 'mine' }], providerData: { model: 'fake.chat:fake-model', responseId: 'r1', fake: { signature: 'sig-mine' } } },
      { type: 'reasoning', content: [{ type: 'input_text', text: 'theirs' }], providerData: { model: 'other.chat:other', other: { signature: 'sig-theirs' } } },
      { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}', providerData: { model: 'fake-model', fake: { callMeta: 1 } } },
      { type: 'function_call_result', callId: 'c1', name: 'f', status: 'completed', output: 'x' },
    ];
    const options = await optionsFor({ input });
    expect(options.prompt).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'mine', providerOptions: { fake: { signature: 'sig-mine' } } },
          { type: 'reasoning', text: 'theirs' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: {}, providerOptions: { fake: { callMeta: 1 } } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', output: { type: 'text', value: 'x' } }] },
    ]);
  });
});

describe('requests an AI SDK model cannot take are a UserError', () => {
  const bad: Array<[string, Partial<ModelRequest>, RegExp]> = [
    ['previousResponseId', { previousResponseId: 'resp_1' }, /previousResponseId and conversationId/],
    ['conversationId', { conversationId: 'conv_1' }, /server keeps/],
    ['a hosted tool it cannot run, named', { tools: [{ type: 'hosted_tool', name: 'web_search_preview', providerData: { type: 'web_search' } }] }, /Tool "web_search_preview" is a hosted tool of type "hosted_tool" \(web_search\)/],
    ['two provider tools with one name', { tools: [{ type: 'hosted_tool', name: 'search', providerData: { type: 'web_search' } }, { type: 'hosted_tool', name: 'search', providerData: { type: 'web_search' } }] }, /cannot disambiguate provider tools with the same flattened name/],
    ['a function tool and a provider tool with one name', { tools: [functionTool, { type: 'hosted_tool', name: 'get_weather', providerData: { type: 'web_search' } }] }, /cannot disambiguate tools with the same flattened name/],
    ['a function tool and a handoff with one name, under the error policy', { tools: [functionTool], handoffs: [{ toolName: 'get_weather', toolDescription: 'd', inputJsonSchema: { type: 'object', properties: {}, required: [], additionalProperties: false }, strictJsonSchema: true }], _internal: { toolNameCollisionPolicy: 'error' } } as Partial<ModelRequest>, /cannot disambiguate function tools and handoffs/],
    ['a function tool whose namespace is its name', { tools: [{ ...functionTool, namespace: 'get_weather' } as typeof functionTool] }, /cannot route a function tool whose namespace matches its name/],
    ['a timeout that is not a positive number', { modelSettings: { timeoutMs: -1 } }, /timeoutMs must be/],
    ['a non-base64 data URL', { input: [{ role: 'user', content: [{ type: 'input_image', image: 'data:image/png,abc' }] }] }, /only base64 data URLs/],
    ['a file whose media type cannot be told', { input: [{ role: 'user', content: [{ type: 'input_file', file: 'https://example.com/blob' }] }] }, /cannot tell the file's media type/],
  ];
  it.each(bad)('%s', async (_name, overrides, message) => {
    const model = v4Model([]);
    const error = await rejectionOf(aisdk(model).getResponse(request(overrides)));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(message);
    expect(model.calls).toHaveLength(0);
  });

  it('a provider file id with a v3 model', async () => {
    const model = v3Model([]);
    const error = await rejectionOf(aisdk(model).getResponse(request({ input: [{ role: 'user', content: [{ type: 'input_image', image: { id: 'file_1' } }] }] })));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/needs an AI SDK 7 \(v4\) model/);
  });

  it('the streamed path rejects the same requests before calling the model', async () => {
    const model = v4Model([]);
    const events = aisdk(model).getStreamedResponse(request({ previousResponseId: 'resp_1' }));
    await expect(events[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(UserError);
    expect(model.calls).toHaveLength(0);
  });
});
