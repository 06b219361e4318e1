import { describe, expect, it } from 'vitest';
import { fakeText } from '@baton/testing';
import { UserError, type AgentInputItem } from '@baton/types';
import { citySchema, fakeServer, modelFor, rejectionOf, request } from './helpers.js';

// What the Responses API expects, field by field, for what the run loop sends.
const weatherTool = { type: 'function' as const, name: 'get_weather', description: 'Weather for a city', parameters: citySchema, strict: true };
const handoff = {
  toolName: 'transfer_to_billing',
  toolDescription: 'Handoff to the Billing agent.',
  inputJsonSchema: { type: 'object' as const, properties: {}, required: [], additionalProperties: false },
  strictJsonSchema: true,
};

/** History after a tool call, a handoff, a reasoning step and a refusal. */
const history: AgentInputItem[] = [
  { type: 'message', role: 'user', content: 'Weather in Paris, then bill me.' },
  { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'need weather' }], encryptedContent: 'enc-1' },
  { type: 'function_call', id: 'fc_1', callId: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
  { type: 'function_call_result', callId: 'call_w', name: 'get_weather', status: 'completed', output: { type: 'text', text: 'sunny' } },
  { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It is sunny.' }] },
  { type: 'function_call', id: 'fc_2', callId: 'call_h', name: 'transfer_to_billing', arguments: '{}', status: 'completed' },
  { type: 'function_call_result', callId: 'call_h', name: 'transfer_to_billing', status: 'completed', output: '{"assistant":"Billing"}' },
  { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'I cannot bill.' }] },
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: 'see' },
      { type: 'input_image', image: 'https://x.test/a.png', detail: 'low' },
      { type: 'input_image', image: { id: 'file_1' } },
      { type: 'input_file', file: { id: 'file_2' }, filename: 'a.pdf' },
    ],
  },
  { type: 'unknown', id: 'ws_1', providerData: { type: 'web_search_call', id: 'ws_1', status: 'completed' } },
];

describe('OpenAIResponsesModel request body', () => {
  it('sends tools and handoffs as strict function tools, tool choice, parallel calls, structured output and settings', async () => {
    const server = await fakeServer(fakeText('ok'));
    await modelFor(server, 'responses').getResponse(
      request({
        systemInstructions: 'Be brief.',
        input: history,
        tools: [weatherTool],
        handoffs: [handoff],
        outputType: { type: 'json_schema', name: 'City', strict: true, schema: citySchema },
        modelSettings: {
          temperature: 0.2,
          topP: 0.9,
          maxTokens: 200,
          toolChoice: 'get_weather',
          parallelToolCalls: false,
          truncation: 'auto',
          store: false,
          reasoning: { effort: 'low', summary: 'auto' },
          text: { verbosity: 'low' },
          providerData: { metadata: { team: 'a' }, user: 'u1' },
          retry: { maxRetries: 0 },
        },
        previousResponseId: 'resp_prev',
      }),
    );
    const body = server.requests[0]!.body;
    expect(server.requests[0]!.path).toBe('/v1/responses');
    expect(body).toEqual({
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      // User and system messages go without `type` (as the reference sends them).
      input: [
        { role: 'user', content: 'Weather in Paris, then bill me.' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'need weather' }], encrypted_content: 'enc-1' },
        { type: 'function_call', id: 'fc_1', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
        { type: 'function_call_output', call_id: 'call_w', output: 'sunny', status: 'completed' },
        { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It is sunny.', annotations: [] }] },
        { type: 'function_call', id: 'fc_2', call_id: 'call_h', name: 'transfer_to_billing', arguments: '{}', status: 'completed' },
        { type: 'function_call_output', call_id: 'call_h', output: '{"assistant":"Billing"}', status: 'completed' },
        { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'I cannot bill.' }] },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'see' },
            { type: 'input_image', detail: 'low', image_url: 'https://x.test/a.png' },
            { type: 'input_image', detail: 'auto', file_id: 'file_1' },
            { type: 'input_file', filename: 'a.pdf', file_id: 'file_2' },
          ],
        },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: citySchema, strict: true },
        { type: 'function', name: 'transfer_to_billing', description: 'Handoff to the Billing agent.', parameters: handoff.inputJsonSchema, strict: true },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      text: { format: { type: 'json_schema', name: 'City', strict: true, schema: citySchema }, verbosity: 'low' },
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 200,
      truncation: 'auto',
      store: false,
      reasoning: { effort: 'low', summary: 'auto' },
      previous_response_id: 'resp_prev',
      metadata: { team: 'a' },
      user: 'u1',
      include: [],
      stream: false,
    });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('sends a plain string input as one user message and leaves out what is not set', async () => {
    const server = await fakeServer(fakeText('ok'));
    await modelFor(server, 'responses').getResponse(request({ input: 'hello', modelSettings: {} }));
    expect(server.requests[0]!.body).toEqual({ model: 'gpt-4.1', input: [{ role: 'user', content: 'hello' }], tools: [], include: [], stream: false });
  });

  it('sends a conversation id instead of a previous response id (the API takes one of them)', async () => {
    const server = await fakeServer(fakeText('ok'));
    await modelFor(server, 'responses').getResponse(request({ conversationId: 'conv_1', previousResponseId: 'resp_1' }));
    expect(server.requests[0]!.body.conversation).toBe('conv_1');
    expect(server.requests[0]!.body).not.toHaveProperty('previous_response_id');
  });

  it.each([
    ['auto', 'auto'],
    ['required', 'required'],
    ['none', 'none'],
    ['web_search', { type: 'web_search' }],
  ])('maps toolChoice %s', async (choice, expected) => {
    const server = await fakeServer(fakeText('ok'));
    const webSearch = { type: 'hosted_tool', name: 'web_search', providerData: { type: 'web_search' } };
    await modelFor(server, 'responses').getResponse(request({ tools: [weatherTool, webSearch], modelSettings: { toolChoice: choice, retry: { maxRetries: 0 } } }));
    expect(server.requests[0]!.body.tool_choice).toEqual(expected);
  });

  it('passes hosted tools through and sends tool outputs with images as content parts', async () => {
    const server = await fakeServer(fakeText('ok'));
    await modelFor(server, 'responses').getResponse(
      request({
        tools: [{ type: 'hosted_tool', name: 'web_search', providerData: { type: 'web_search' } }],
        input: [
          { type: 'function_call', callId: 'c1', name: 'shot', arguments: '{}' },
          { type: 'function_call_result', callId: 'c1', name: 'shot', status: 'completed', output: [{ type: 'text', text: 'here' }, { type: 'image', image: 'data:image/png;base64,AA' }] },
        ],
      }),
    );
    const body = server.requests[0]!.body;
    expect(body.tools).toEqual([{ type: 'web_search' }]);
    expect(body.input[1].output).toEqual([
      { type: 'input_text', text: 'here' },
      { type: 'input_image', image_url: 'data:image/png;base64,AA' },
    ]);
  });

  it.each([
    ['a tool choice naming no tool', request({ tools: [weatherTool], modelSettings: { toolChoice: 'nope' } }), /toolChoice="nope" does not match any available tool in the outgoing Responses request. Available tools: get_weather\./],
    ['toolChoice required without tools', request({ modelSettings: { toolChoice: 'required' } }), /toolChoice="required" requires at least one available tool/],
    ['a hosted tool choice without that tool', request({ tools: [weatherTool], modelSettings: { toolChoice: 'web_search' } }), /toolChoice="web_search" is unavailable/],
    ['an unsupported tool type', request({ tools: [{ type: 'teleporter', name: 'pc' }] }), /does not support tools of type "teleporter"/],
    ['an input image without an image', request({ input: [{ role: 'user', content: [{ type: 'input_image' }] }] }), /needs an `image`/],
  ])('rejects %s with a UserError before any request', async (_label, bad, message) => {
    const server = await fakeServer();
    const error = await rejectionOf(modelFor(server, 'responses').getResponse(bad));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(message);
    expect(server.requests).toHaveLength(0);
  });

  it('sends an assistant message phase back, from the item or its providerData, and rejects an unknown one', async () => {
    const server = await fakeServer(fakeText('ok'), fakeText('ok'));
    const model = modelFor(server, 'responses');
    const assistant = (fields: Record<string, unknown>) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'earlier' }], ...fields }) as AgentInputItem;
    await model.getResponse(request({ input: [assistant({ phase: 'commentary', providerData: { phase: 'final_answer', customMetadata: 'keep' } })] }));
    expect(server.requests[0]!.body.input[0]).toMatchObject({ role: 'assistant', phase: 'commentary', custom_metadata: 'keep' });
    await model.getResponse(request({ input: [assistant({ providerData: { phase: 'final_answer' } })] }));
    expect(server.requests[1]!.body.input[0]).toMatchObject({ phase: 'final_answer' });
    const error = await rejectionOf(model.getResponse(request({ input: [assistant({ phase: 'thinking' })] })));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('Invalid assistant message phase: "thinking". Expected "commentary" or "final_answer".');
  });

  it('sends prompt-cache breakpoints on input content, and leaves blank instructions out', async () => {
    const server = await fakeServer(fakeText('ok'));
    const breakpoint = { mode: 'explicit' as const };
    await modelFor(server, 'responses').getResponse(
      request({
        systemInstructions: '   ',
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'one', promptCacheBreakpoint: breakpoint }, { type: 'input_image', image: 'https://example.com/i.png', promptCacheBreakpoint: breakpoint }] }],
      }),
    );
    const body = server.requests[0]!.body;
    expect(body).not.toHaveProperty('instructions');
    expect(body.input[0].content).toEqual([
      { type: 'input_text', text: 'one', prompt_cache_breakpoint: breakpoint },
      { type: 'input_image', detail: 'auto', image_url: 'https://example.com/i.png', prompt_cache_breakpoint: breakpoint },
    ]);
  });
});
