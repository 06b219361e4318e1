import { describe, expect, it } from 'vitest';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// The OpenAI models on both SDKs, driven by the same stand-in `openai` client: how unsuccessful,
// truncated and content-filtered answers end, what a response carries (providerData, request id,
// raw usage, usage entries) and what the models advise a retry policy.

type Json = Record<string, any>;

const request = (overrides: Json = {}) => ({ input: 'hi', modelSettings: {}, tools: [], outputType: 'text', handoffs: [], tracing: false, ...overrides });

function withRequestId<T extends object>(value: T, id: string): T {
  Object.defineProperty(value, '_request_id', { value: id, enumerable: false });
  return value;
}

async function* streamOf(events: unknown[]) {
  yield* events;
}

const responsesClient = (answer: () => unknown) => ({ baseURL: 'https://api.openai.com/v1', responses: { create: async () => answer() } });
const chatClient = (answer: () => unknown) => ({ baseURL: 'https://api.openai.com/v1', chat: { completions: { create: async () => answer() } } });

/** The reference's models record spans, so direct calls run inside a trace (on both SDKs alike). */
function traced(sdk: any, model: any) {
  return {
    model,
    getRetryAdvice: (args: unknown) => model.getRetryAdvice(args),
    getResponse: (req: unknown) => sdk.withTrace('t', () => model.getResponse(req)),
    getStreamedResponse: (req: unknown) => ({
      async *[Symbol.asyncIterator]() {
        const events: unknown[] = [];
        let failure: unknown;
        await sdk.withTrace('t', async () => {
          try {
            for await (const event of model.getStreamedResponse(req)) events.push(event);
          } catch (error) {
            failure = error;
          }
        });
        yield* events;
        if (failure !== undefined) throw failure;
      },
    }),
  };
}
function responsesModel({ sdk }: SdkUnderTest, answer: () => unknown) {
  return traced(sdk, new (sdk as any).OpenAIResponsesModel(responsesClient(answer), 'gpt-4.1'));
}
function chatModel({ sdk }: SdkUnderTest, answer: () => unknown) {
  return traced(sdk, new (sdk as any).OpenAIChatCompletionsModel(chatClient(answer), 'gpt-4.1'));
}

/** What an error looks like from outside: its class family, message and retry advice. */
function describeError(under: SdkUnderTest, model: any, error: unknown, stream: boolean) {
  const advice = model.getRetryAdvice({ error, request: request(), stream, attempt: 1 });
  return {
    modelBehavior: error instanceof (under.sdk as any).ModelBehaviorError,
    message: (error as Error).message,
    advice: advice && { suggested: advice.suggested, replaySafety: advice.replaySafety, responseStarted: advice.responseStarted },
  };
}

async function streamed(model: any, req: Json = request()) {
  const events: Json[] = [];
  const outcome = await outcomeOf(
    (async () => {
      for await (const event of model.getStreamedResponse(req)) events.push(event);
    })(),
  );
  return { events, outcome };
}

const secret = 'secret provider detail';

describe('OpenAI Responses model outcomes (same on both SDKs)', () => {
  it.each(['failed', 'incomplete'])('a %s response is a ModelBehaviorError naming only its terminal state, unsafe to replay', async (status) => {
    const both = await onBoth(async (under) => {
      const model = responsesModel(under, () => ({ id: 'resp_1', status, output: [], usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 }, error: { message: secret }, incomplete_details: { reason: secret } }));
      const outcome = await outcomeOf(model.getResponse(request()));
      return outcome.ok ? 'resolved' : describeError(under, model, outcome.error, false);
    });
    expect(both.baton).toEqual(both.reference);
    expect(JSON.stringify(both.baton)).not.toContain(secret);
  });

  it.each([
    ['response.failed', { type: 'response.failed', response: { id: 'r', status: 'failed', output: [], usage: {}, error: { message: secret } }, sequence_number: 0 }],
    ['response.incomplete', { type: 'response.incomplete', response: { id: 'r', status: 'incomplete', output: [], usage: {} }, sequence_number: 0 }],
    ['error', { type: 'error', code: 'server_error', message: secret, param: null, sequence_number: 0 }],
    ['response.completed without its response', { type: 'response.completed', sequence_number: 0 }],
  ])('a stream ending in %s passes the event through, then fails the same way', async (_label, terminal) => {
    const both = await onBoth(async (under) => {
      const model = responsesModel(under, () => streamOf([terminal]));
      const { events, outcome } = await streamed(model);
      return { types: events.map((e) => e.type), error: outcome.ok ? 'resolved' : describeError(under, model, outcome.error, true) };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('a response carries the API object as providerData, its request id, raw usage on request, and a responses.create usage entry', async () => {
    const both = await onBoth(async (under) => {
      const answer = withRequestId(
        {
          id: 'resp_1',
          status: 'completed',
          output: [{ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hi', annotations: [] }] }],
          usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7, input_tokens_details: { cached_tokens: 1 }, output_tokens_details: { reasoning_tokens: 2 } },
        },
        'req_1',
      );
      const model = responsesModel(under, () => answer);
      const plain = await model.getResponse(request());
      const raw = await model.getResponse(request({ modelSettings: { preserveRawUsage: true } }));
      return {
        providerDataIsTheResponse: plain.providerData === answer,
        requestId: plain.requestId,
        rawUsage: [plain.rawUsage, raw.rawUsage],
        rawUsageDetached: raw.rawUsage !== answer.usage,
        output: plain.output,
        usage: { ...plain.usage, requestUsageEntries: plain.usage.requestUsageEntries?.map((entry: Json) => ({ ...entry })) },
      };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it('a run records each Responses request with its endpoint', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const model = responsesModel({ sdk } as SdkUnderTest, () => ({
        id: 'resp_1',
        status: 'completed',
        output: [{ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] }],
        usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      }));
      const result = await (sdk as any).run(new (sdk as any).Agent({ name: 'A', model: model.model }), 'go');
      return result.state.usage.requestUsageEntries.map((entry: Json) => ({ endpoint: entry.endpoint, totalTokens: entry.totalTokens }));
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual([{ endpoint: 'responses.create', totalTokens: 7 }]);
  });
});

describe('OpenAI Chat Completions model outcomes (same on both SDKs)', () => {
  const completion = (message: Json, finish_reason: string | null = 'stop', extra: Json = {}) => ({ id: 'chatcmpl_1', choices: [{ index: 0, message, finish_reason }], ...extra });

  it.each([
    ['content null', { role: 'assistant', content: null }],
    ['content ""', { role: 'assistant', content: '' }],
  ])("finish_reason 'length' with nothing produced (%s) is a ModelBehaviorError, unsafe to replay", async (_label, message) => {
    const both = await onBoth(async (under) => {
      const model = chatModel(under, () => completion(message, 'length'));
      const outcome = await outcomeOf(model.getResponse(request()));
      return outcome.ok ? 'resolved' : describeError(under, model, outcome.error, false);
    });
    expect(both.baton).toEqual(both.reference);
  });

  it.each([
    ['text', { role: 'assistant', content: 'partial' }, 'length'],
    ['a refusal', { role: 'assistant', content: null, refusal: 'no' }, 'length'],
    ['a function call', { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, 'length'],
    ['nothing, filtered', { role: 'assistant', content: null }, 'content_filter'],
    ['text, filtered', { role: 'assistant', content: 'partial' }, 'content_filter'],
    ['text and a tool call', { content: 'hi', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' }, extra: 'y' }] }, 'tool_calls'],
    ['reasoning and text', { reasoning: 'because', content: 'hi' }, 'stop'],
  ])('a completion with %s gives the same output items', async (_label, message, finish) => {
    const both = await onBoth(async (under) => (await chatModel(under, () => completion(message, finish)).getResponse(request())).output);
    expect(both.baton).toEqual(both.reference);
  });

  it('a completion carries the API object as providerData, its request id and raw usage on request', async () => {
    const both = await onBoth(async (under) => {
      const answer = withRequestId(completion({ content: 'hi' }, 'stop', { usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, prompt_tokens_details: { cached_tokens: 0, provider_metric: null } } }), 'req_1');
      const model = chatModel(under, () => answer);
      const plain = await model.getResponse(request());
      const raw = await model.getResponse(request({ modelSettings: { preserveRawUsage: true } }));
      return {
        providerDataIsTheResponse: plain.providerData === answer,
        requestId: plain.requestId,
        rawUsage: [plain.rawUsage, raw.rawUsage],
        details: [plain.usage.inputTokensDetails, plain.usage.outputTokensDetails],
      };
    });
    expect(both.baton).toEqual(both.reference);
  });

  const chunk = (delta: Json, finish_reason: string | null = null) => ({ id: 'chatcmpl_1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] });

  it.each([
    ['ends without a finish_reason', [chunk({ content: 'hel' }), chunk({ content: 'lo' })]],
    ['is emptied by the content filter', [chunk({ role: 'assistant' }), chunk({}, 'content_filter')]],
    ['skips a custom tool call by its index', [chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'custom', custom: { name: 'x', input: 'a' } }] }), chunk({ tool_calls: [{ index: 0, function: { arguments: 'b' } }] }), chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'f', arguments: '{}' } }] }, 'tool_calls')]],
    ['is filtered after a custom tool call only', [chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'custom', custom: { name: 'x', input: 'a' } }] }), chunk({}, 'content_filter')]],
    ['streams tool calls', [chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }), chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }, 'tool_calls')]],
  ])('a stream that %s ends with the same output', async (_label, chunks) => {
    const both = await onBoth(async (under) => {
      const { events, outcome } = await streamed(chatModel(under, () => streamOf(chunks)));
      const done = events.find((e) => e.type === 'response_done');
      return { ok: outcome.ok, types: events.map((e) => e.type), textDeltas: events.filter((e) => e.type === 'output_text_delta').map((e) => [e.delta, e.itemId]), output: done?.response.output };
    });
    expect(both.baton).toEqual(both.reference);
  });

  it("a stream cut at the token limit before producing anything fails the same way", async () => {
    const both = await onBoth(async (under) => {
      const model = chatModel(under, () => streamOf([chunk({ role: 'assistant' }), chunk({}, 'length')]));
      const { outcome } = await streamed(model);
      return outcome.ok ? 'resolved' : describeError(under, model, outcome.error, true);
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('OpenAI models retry advice (same on both SDKs)', () => {
  const withHeaders = (message: string, fields: Json) => Object.assign(new Error(message), fields);
  it.each([
    ['x-should-retry: false on a 500', () => withHeaders('internal error', { status: 500, headers: new Headers([['x-should-retry', 'false']]) }), {}],
    ['x-should-retry: true on a 418', () => withHeaders('retry me', { status: 418, headers: new Headers([['x-should-retry', 'true']]) }), {}],
    ['x-should-retry: true on a stateful request', () => withHeaders('retry me', { status: 429, headers: new Headers([['x-should-retry', 'true']]) }), { previousResponseId: 'resp_1' }],
    ['a header object in any case', () => withHeaders('retry me', { status: 400, headers: { 'X-Should-Retry': 'true' } }), {}],
    ['a 429 without the header', () => withHeaders('rate limited', { status: 429 }), {}],
    ['a 429 on a stateful request', () => withHeaders('rate limited', { status: 429 }), { conversationId: 'conv_1' }],
    ['a statusCode 503', () => withHeaders('unavailable', { statusCode: 503 }), {}],
    ['a 400', () => withHeaders('bad request', { status: 400 }), {}],
    ['an unsafe replay marker', () => ({ unsafeToReplay: true }), {}],
  ])('%s', async (_label, makeError, requestFields) => {
    const both = await onBoth(async (under) => {
      const advice = [responsesModel(under, () => undefined), chatModel(under, () => undefined)].map((model) =>
        model.getRetryAdvice({ error: makeError(), request: request(requestFields), stream: false, attempt: 1 }),
      );
      return advice;
    });
    expect(both.baton).toEqual(both.reference);
  });
});
