import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer } from '@baton/testing';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// What the OpenAI models and provider send and refuse, side by side: the Responses request the
// reference's `_buildResponsesCreateRequest` builds (stored prompts, extra_body, parallel tool
// calls, merged settings), tool-choice errors, what Chat Completions cannot carry, provider option
// clashes, raw model event helpers, and OPENAI_BASE_URL for conversations sessions.

type Json = Record<string, any>;

const request = (overrides: Json = {}) => ({ input: 'hello', modelSettings: {}, tools: [], outputType: 'text', handoffs: [], tracing: false, ...overrides });
const lookup = { type: 'function', name: 'lookup', description: 'Look up a record.', parameters: { type: 'object', properties: {}, additionalProperties: false }, strict: true };
const handoff = { toolName: 'transfer_to_b', toolDescription: 'Hand off to B', inputJsonSchema: { type: 'object', properties: {}, required: [], additionalProperties: false }, strictJsonSchema: true };

function built({ sdk }: SdkUnderTest, req: Json, stream = false) {
  const model = new (sdk as any).OpenAIResponsesModel({ responses: { create: async () => undefined } }, 'gpt-test');
  return model._buildResponsesCreateRequest(req, stream).requestData;
}

const errorText = (outcome: { ok: boolean; error?: unknown }) => (outcome.ok ? 'ok' : (outcome.error as Error).message);

describe('Responses request building (same on both SDKs)', () => {
  it.each([
    ['a function tool', { tools: [lookup] }],
    ['a handoff', { handoffs: [handoff] }],
    ['no tools', {}],
    ['explicitly no tools', { toolsExplicitlyProvided: true }],
    ['a stored prompt that may supply tools', { prompt: { promptId: 'pmpt_1', version: '2', variables: { name: 'Ada', block: { type: 'input_text', text: 'hi' } } } }],
    ['a stored prompt with tools turned off', { prompt: { promptId: 'pmpt_1' }, toolsExplicitlyProvided: true }],
    ['a stored prompt whose model is overridden', { prompt: { promptId: 'pmpt_1' }, overridePromptModel: true }],
    ['extra_body tools', { modelSettings: { providerData: { extra_body: { tools: [lookup], stream: true } } } }],
    ['providerData parallel_tool_calls', { tools: [lookup], modelSettings: { parallelToolCalls: false, providerData: { parallel_tool_calls: true } } }],
    ['merged reasoning and text settings', { modelSettings: { reasoning: { effort: 'medium', summary: 'auto' }, text: { verbosity: 'low' }, providerData: { reasoning: { summary: 'override' }, text: { verbosity: 'high' } } } }],
    ['structured output with text settings', { outputType: { type: 'json_schema', name: 'out', strict: true, schema: { type: 'object', properties: {} } }, modelSettings: { text: { verbosity: 'low' } } }],
    ['blank instructions', { systemInstructions: '   ' }],
    ['prompt cache settings', { modelSettings: { promptCacheRetention: 'in-memory', promptCacheOptions: { mode: 'explicit', ttl: '30m' } } }],
    ['an assistant phase', { input: [{ type: 'message', role: 'assistant', status: 'completed', phase: 'commentary', content: [{ type: 'output_text', text: 'x' }], providerData: { phase: 'final_answer', customMetadata: 'keep' } }] }],
    ['a phase in providerData only', { input: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'x' }], providerData: { phase: 'final_answer' } }] }],
    ['prompt-cache breakpoints', { input: [{ role: 'user', content: [{ type: 'input_text', text: 'one', promptCacheBreakpoint: { mode: 'explicit' } }, { type: 'input_image', image: 'https://example.com/i.png', promptCacheBreakpoint: { mode: 'explicit' } }] }] }],
  ])('%s', async (_label, fields) => {
    const both = await onBoth(async (under) =>
      [false, true].flatMap((stream) => [true, false].map((parallelToolCalls) => {
        const req = request(fields);
        req.modelSettings = { parallelToolCalls, ...req.modelSettings };
        return built(under, req, stream);
      })),
    );
    expect(both.baton).toEqual(both.reference);
  });

  it.each([
    ['a function choice naming no tool', { tools: [lookup], modelSettings: { toolChoice: 'missing' } }],
    ['required without tools', { modelSettings: { toolChoice: 'required' } }],
    ['a hosted tool choice without that tool', { tools: [lookup], modelSettings: { toolChoice: 'web_search' } }],
    ['a choice a stored prompt may supply', { prompt: { promptId: 'pmpt_1' }, modelSettings: { toolChoice: 'prompt_lookup' } }],
    ['required with a stored prompt whose tools are off', { prompt: { promptId: 'pmpt_1' }, toolsExplicitlyProvided: true, modelSettings: { toolChoice: 'required' } }],
    ['a choice extra_body supplies', { modelSettings: { toolChoice: 'lookup', providerData: { extra_body: { tools: [lookup] } } } }],
    ['an invalid assistant phase', { input: [{ type: 'message', role: 'assistant', status: 'completed', phase: 'thinking', content: [] }] }],
  ])('tool choice and input checks: %s', async (_label, fields) => {
    const both = await onBoth(async (under) => {
      const outcome = await outcomeOf(Promise.resolve().then(() => built(under, request(fields))));
      return outcome.ok ? { tool_choice: outcome.value.tool_choice } : errorText(outcome);
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('Chat Completions requests (same on both SDKs)', () => {
  function chat({ sdk }: SdkUnderTest, options?: Json) {
    const calls: Json[] = [];
    const client = { chat: { completions: { create: async (body: Json) => (calls.push(body), { id: 'c', choices: [{ message: { content: 'ok' } }] }) } } };
    return { model: new (sdk as any).OpenAIChatCompletionsModel(client, 'gpt-4.1', options), calls };
  }

  it.each([
    ['a function choice naming no tool', { tools: [lookup], modelSettings: { toolChoice: 'missing' } }],
    ['required without tools', { modelSettings: { toolChoice: 'required' } }],
    ['providerData parallel_tool_calls without tools', { modelSettings: { providerData: { parallel_tool_calls: true } } }],
    ['providerData tools and parallel_tool_calls', { modelSettings: { providerData: { tools: [{ type: 'function', function: { name: 'raw' } }], parallel_tool_calls: false } } }],
    ['reasoning and text settings with providerData', { modelSettings: { reasoning: { effort: 'high' }, text: { verbosity: 'medium' }, providerData: { customOption: 'keep' } } }],
    ['prompt cache settings', { modelSettings: { promptCacheRetention: 'in-memory', promptCacheOptions: { mode: 'implicit' } } }],
  ])('%s', async (_label, fields) => {
    const both = await onBoth(async (under) => {
      const { model, calls } = chat(under);
      const outcome = await outcomeOf(under.sdk.withTrace('t', () => model.getResponse(request(fields))));
      return outcome.ok ? calls[0] : errorText(outcome);
    });
    expect(both.baton).toEqual(both.reference);
  });

  it.each([
    ['a previous response id', { previousResponseId: 'resp_1' }],
    ['a conversation id', { conversationId: 'conv_1' }],
    ['a stored prompt', { prompt: { promptId: 'pmpt_1' } }],
  ])('%s: ignored by default, a UserError with strictFeatureValidation', async (_label, fields) => {
    const both = await onBoth(async (under) => {
      const warn = console.warn;
      console.warn = () => {};
      try {
        const lenient = chat(under);
        const strict = chat(under, { strictFeatureValidation: true });
        const ok = await outcomeOf(under.sdk.withTrace('t', () => lenient.model.getResponse(request(fields))));
        const rejected = await outcomeOf(under.sdk.withTrace('t', () => strict.model.getResponse(request(fields))));
        return { ok: ok.ok, sent: lenient.calls[0], rejected: errorText(rejected), userError: !rejected.ok && rejected.error instanceof (under.sdk as any).UserError };
      } finally {
        console.warn = warn;
      }
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('OpenAIProvider options (same on both SDKs)', () => {
  it.each([
    ['apiKey', { apiKey: 'k' }],
    ['baseURL', { baseURL: 'https://example.test/v1' }],
    ['organization', { organization: 'org' }],
    ['an empty organization', { organization: '' }],
    ['project', { project: 'proj' }],
    ['an empty apiKey', { apiKey: '' }],
  ])('%s together with openAIClient', async (_label, options) => {
    const both = await onBoth(async ({ sdk }) => errorText(await outcomeOf(Promise.resolve().then(() => new (sdk as any).OpenAIProvider({ openAIClient: {}, ...options })))));
    expect(both.baton).toEqual(both.reference);
  });

  it('passes strictFeatureValidation to Chat Completions models', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const provider = new (sdk as any).OpenAIProvider({ openAIClient: { chat: { completions: { create: async () => ({}) } } }, useResponses: false, strictFeatureValidation: true });
      const model = await provider.getModel('gpt-4o');
      return errorText(await outcomeOf(sdk.withTrace('t', () => model.getResponse(request({ previousResponseId: 'resp_1' })))));
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('raw model event helpers (same on both SDKs)', () => {
  it.each(['openai-responses', 'openai-chat-completions', undefined])('an event marked %s', async (marker) => {
    const both = await onBoth(async ({ sdk }) => {
      const s = sdk as any;
      const event = new s.RunRawModelStreamEvent({ type: 'model', event: { type: 'x' }, providerData: marker ? { rawModelEventSource: marker } : {} });
      return [s.isOpenAIResponsesRawModelStreamEvent(event), s.isOpenAIChatCompletionsRawModelStreamEvent(event)];
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('OpenAIConversationsSession and OPENAI_BASE_URL (same on both SDKs)', () => {
  const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
  afterEach(() => {
    for (const [name, value] of [['OPENAI_BASE_URL', saved.base], ['OPENAI_API_KEY', saved.key]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('startOpenAIConversationsSession and the session go to OPENAI_BASE_URL', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const server = await FakeOpenAIServer.start({ turns: [] });
      try {
        process.env.OPENAI_BASE_URL = server.baseURL;
        process.env.OPENAI_API_KEY = 'sk-env';
        const s = sdk as any;
        const id = await s.startOpenAIConversationsSession();
        const session = new s.OpenAIConversationsSession({ conversationId: id });
        await session.addItems([{ role: 'user', content: 'hi' }]);
        const items = await session.getItems();
        return { requests: server.requests.map((r) => `${r.method} ${r.path.replace(/conv_\w+/, 'conv')}`), items: items.length };
      } finally {
        await server.close();
      }
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.requests.length).toBeGreaterThan(0);
  });
});
