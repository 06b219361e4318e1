import { describe, expect, it } from 'vitest';
import { fakeText } from '@baton/testing';
import { UserError, type AgentInputItem } from '@baton/types';
import { OpenAIChatCompletionsModel } from '../src/index.js';
import { citySchema, clientFor, fakeServer, modelFor, rejectionOf, request } from './helpers.js';

// What the Chat Completions API expects, field by field, for what the run loop sends.
const weatherTool = { type: 'function' as const, name: 'get_weather', description: 'Weather for a city', parameters: citySchema, strict: true };
const handoff = {
  toolName: 'transfer_to_billing',
  toolDescription: 'Handoff to the Billing agent.',
  inputJsonSchema: { type: 'object' as const, properties: {}, required: [], additionalProperties: false },
  strictJsonSchema: true,
};

const history: AgentInputItem[] = [
  { type: 'message', role: 'user', content: 'Weather in Paris and Oslo, then bill me.' },
  { type: 'reasoning', content: [], rawContent: [{ type: 'reasoning_text', text: 'thinking' }] },
  { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Checking.' }] },
  { type: 'function_call', callId: 'call_p', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
  { type: 'function_call', callId: 'call_o', name: 'get_weather', arguments: '{"city":"Oslo"}', status: 'completed' },
  { type: 'function_call_result', callId: 'call_p', name: 'get_weather', status: 'completed', output: { type: 'text', text: 'sunny' } },
  { type: 'function_call_result', callId: 'call_o', name: 'get_weather', status: 'completed', output: 'snow' },
  { type: 'function_call', callId: 'call_h', name: 'transfer_to_billing', arguments: '{}', status: 'completed' },
  { type: 'function_call_result', callId: 'call_h', name: 'transfer_to_billing', status: 'completed', output: '{"assistant":"Billing"}' },
  { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'I cannot bill.' }] },
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: 'see' },
      { type: 'input_image', image: 'https://x.test/a.png', detail: 'high' },
      { type: 'input_file', file: 'data:application/pdf;base64,AA', filename: 'a.pdf' },
    ],
  },
];

describe('OpenAIChatCompletionsModel request body', () => {
  it('sends messages with merged tool calls, strict function tools, tool choice, response_format and settings', async () => {
    const server = await fakeServer(fakeText('{"city":"Paris"}'));
    await modelFor(server, 'chat_completions').getResponse(
      request({
        systemInstructions: 'Be brief.',
        input: history,
        tools: [weatherTool],
        handoffs: [handoff],
        outputType: { type: 'json_schema', name: 'City', strict: true, schema: citySchema },
        modelSettings: {
          temperature: 0.2,
          topP: 0.9,
          frequencyPenalty: 0.1,
          presencePenalty: 0.3,
          maxTokens: 200,
          toolChoice: 'transfer_to_billing',
          parallelToolCalls: true,
          store: true,
          reasoning: { effort: 'low' },
          text: { verbosity: 'medium' },
          providerData: { seed: 7 },
          retry: { maxRetries: 0 },
        },
      }),
    );
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(server.requests[0]!.body).toEqual({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris and Oslo, then bill me.' },
        {
          role: 'assistant',
          // Content as parts, and the reasoning before it, as the reference sends them.
          content: [{ type: 'text', text: 'Checking.' }],
          reasoning: 'thinking',
          tool_calls: [
            { id: 'call_p', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_o', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_p', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_o', content: 'snow' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_h', type: 'function', function: { name: 'transfer_to_billing', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_h', content: '{"assistant":"Billing"}' },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot bill.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: 'https://x.test/a.png', detail: 'high' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,AA', filename: 'a.pdf' } },
          ],
        },
      ],
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: citySchema, strict: true } },
        // Handoffs without `strict`, as the reference's Chat Completions model sends them.
        { type: 'function', function: { name: 'transfer_to_billing', description: 'Handoff to the Billing agent.', parameters: handoff.inputJsonSchema } },
      ],
      tool_choice: { type: 'function', function: { name: 'transfer_to_billing' } },
      parallel_tool_calls: true,
      response_format: { type: 'json_schema', json_schema: { name: 'City', strict: true, schema: citySchema } },
      temperature: 0.2,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: 0.3,
      max_tokens: 200,
      reasoning_effort: 'low',
      verbosity: 'medium',
      store: true,
      seed: 7,
      stream: false,
    });
  });

  it('asks for usage in streamed answers', async () => {
    const server = await fakeServer(fakeText('ok'));
    for await (const _ of modelFor(server, 'chat_completions').getStreamedResponse(request({ input: 'hello' }))) void _;
    expect(server.requests[0]!.body).toEqual({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('leaves out parallel_tool_calls when there are no tools', async () => {
    const server = await fakeServer(fakeText('ok'));
    await modelFor(server, 'chat_completions').getResponse(request({ modelSettings: { parallelToolCalls: false } }));
    expect(server.requests[0]!.body).not.toHaveProperty('parallel_tool_calls');
  });

  it('sends a tool output with no text (an image) as the reference does: its placeholder', async () => {
    const server = await fakeServer(fakeText('ok'));
    const output = [{ type: 'image' as const, image: 'data:x' }];
    await modelFor(server, 'chat_completions').getResponse(
      request({ input: [{ type: 'function_call', callId: 'c', name: 'shot', arguments: '{}' }, { type: 'function_call_result', callId: 'c', name: 'shot', status: 'completed', output }] }),
    );
    expect(server.requests[0]!.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c', content: '[tool output omitted]' });
  });

  it.each([
    ['a hosted tool', request({ tools: [{ type: 'hosted_tool', name: 'web_search', providerData: { type: 'web_search' } }] }), /function tools only/],
    ['a tool choice naming no tool', request({ tools: [weatherTool], modelSettings: { toolChoice: 'nope' } }), /toolChoice="nope" does not match any available tool or handoff/],
    ['toolChoice required without tools', request({ modelSettings: { toolChoice: 'required' } }), /toolChoice="required" requires at least one available tool/],
    ['an image file id', request({ input: [{ role: 'user', content: [{ type: 'input_image', image: { id: 'file_1' } }] }] }), /Only image URLs are supported for input_image/],
    ['a hosted call other than file search', request({ input: [{ type: 'hosted_tool_call', name: 'web_search_call', status: 'completed' }] }), /Hosted tool calls are not supported for chat completions/],
    ['audio without a wav or mp3 format', request({ input: [{ role: 'user', content: [{ type: 'audio', audio: 'AAA', format: 'ogg' }] }] }), /input_audio requires format "wav" or "mp3"/],
  ])('rejects %s with a UserError before any request', async (_label, bad, message) => {
    const server = await fakeServer();
    const error = await rejectionOf(modelFor(server, 'chat_completions').getResponse(bad));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(message);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ['a previous response id', { previousResponseId: 'resp_1' }, /server-managed conversation state \(previousResponseId\)/],
    ['a conversation id', { conversationId: 'conv_1' }, /server-managed conversation state \(conversationId\)/],
    ['a stored prompt', { prompt: { promptId: 'pmpt_1' } }, /Reusable prompts are only supported by the Responses API/],
  ])('ignores %s with one warning, or rejects it with strictFeatureValidation', async (_label, fields, message) => {
    const server = await fakeServer(fakeText('one'), fakeText('two'));
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args[0]);
    try {
      const model = modelFor(server, 'chat_completions');
      await model.getResponse(request(fields));
      await model.getResponse(request(fields));
    } finally {
      console.warn = warn;
    }
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0])).toMatch(message);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.body).not.toHaveProperty('previous_response_id');
    const strict = new OpenAIChatCompletionsModel(clientFor(server), 'gpt-4.1', { strictFeatureValidation: true });
    const error = await rejectionOf(strict.getResponse(request(fields)));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(message);
    expect(server.requests).toHaveLength(2);
  });

  it('with strictFeatureValidation, a tool output without text is a UserError instead of the placeholder', async () => {
    const server = await fakeServer();
    const output = [{ type: 'image' as const, image: 'data:x' }];
    const strict = new OpenAIChatCompletionsModel(clientFor(server), 'gpt-4.1', { strictFeatureValidation: true });
    const error = await rejectionOf(
      strict.getResponse(request({ input: [{ type: 'function_call', callId: 'c', name: 'shot', arguments: '{}' }, { type: 'function_call_result', callId: 'c', name: 'shot', status: 'completed', output }] })),
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('Chat Completions tool outputs cannot be empty or contain only non-text content.');
    expect(server.requests).toHaveLength(0);
  });
});
