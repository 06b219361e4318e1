import { describe, expect, it } from 'vitest';
import { isModelProviderError, type Model, type ModelProviderError } from '@baton/types';
import { FakeOpenAIServer } from '../fakeOpenAIServer/fakeOpenAIServer.js';
import { fakeError, fakeRefusal, fakeResponse, fakeText, fakeToolCalls, type FakeTurn } from '../fakeOpenAIServer/turns.js';
import { CALL_MODES, answer, callsOf, comparable, refusalOf, request, textOf, timeTool, weatherTool, type CallMode } from './answers.js';

/** Makes the model under test, talking to the local server (each vendor's client at its own routes). */
export type MakeContractModel = (server: FakeOpenAIServer) => Model | Promise<Model>;

export interface ModelContractOptions {
  /**
   * Cases this model cannot pass because its vendor cannot express them (say why beside the entry).
   * A case is named by its title (`'refusal'`) or its title and mode (`'malformed tool arguments/plain'`);
   * skipped cases still appear in the report, marked skipped.
   */
  readonly skip?: readonly string[];
  /** How a structured answer is scripted when the vendor does not answer it as plain text (default `fakeText(json)`). */
  readonly structuredOutputTurn?: (json: string) => FakeTurn;
}

interface ContractContext {
  readonly server: FakeOpenAIServer;
  readonly model: Model;
  readonly mode: CallMode;
  readonly options: ModelContractOptions;
}

interface ContractCase {
  readonly title: string;
  readonly modes?: readonly CallMode[];
  readonly run: (context: ContractContext) => Promise<void>;
}

/**
 * The provider contract: one suite that any `Model` implementation runs, so "this provider works"
 * is proved the same way for every vendor. Each case scripts vendor-neutral turns on a local server
 * that answers in the vendor's wire format, calls the model as the run loop does (plain and
 * streamed), and checks the outcome the loop relies on: text, tool calls and their round trip,
 * parallel calls, structured output, streaming event order, aborts that close the connection,
 * usage, refusals, typed errors with status and retryability, and the bad answers (unknown tool,
 * malformed arguments, empty response, a stream that ends early) reaching the loop as the OpenAI
 * provider delivers them.
 *
 * ```ts
 * describeModelContract('aisdk(anthropic)', (server) => aisdk(createAnthropic({ baseURL: server.anthropicBaseURL, apiKey: 'k' })('claude-sonnet-4-5')));
 * ```
 */
export function describeModelContract(name: string, make: MakeContractModel, options: ModelContractOptions = {}): void {
  describe(`model contract: ${name}`, () => {
    for (const testCase of CONTRACT_CASES) {
      for (const mode of testCase.modes ?? CALL_MODES) {
        const skipped = options.skip?.includes(testCase.title) || options.skip?.includes(`${testCase.title}/${mode}`);
        (skipped ? it.skip : it)(`${testCase.title} (${mode})`, async () => {
          // A server per case: a failed case cannot leave turns behind for the next one.
          const server = await FakeOpenAIServer.start();
          try {
            await testCase.run({ server, model: await make(server), mode, options });
            server.assertComplete();
          } finally {
            await server.close();
          }
        });
      }
    }
  });
}

/** The body of the latest request the server received, as text, to look for what must have been sent. */
function lastBody(server: FakeOpenAIServer): string {
  const requests = server.requests;
  return JSON.stringify(requests[requests.length - 1]?.body ?? {});
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('the call succeeded; it should have failed'),
    (error: unknown) => error,
  );
}

function expectProviderError(error: unknown): asserts error is ModelProviderError {
  expect(isModelProviderError(error), `expected a ModelProviderError (an AgentsError whose _tag ends in ProviderError), got ${String(error)}`).toBe(true);
}

const STRUCTURED_SCHEMA = {
  type: 'object' as const,
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

const CONTRACT_CASES: readonly ContractCase[] = [
  {
    title: 'plain text',
    async run({ server, model, mode }) {
      server.enqueue(fakeText('The capital of France is Paris.'));
      const result = await answer(model, request('What is the capital of France?', { systemInstructions: 'You are a terse geography tutor.' }), mode);
      expect(textOf(result.output)).toBe('The capital of France is Paris.');
      expect(callsOf(result.output)).toEqual([]);
      const sent = lastBody(server);
      expect(sent).toContain('You are a terse geography tutor.');
      expect(sent).toContain('What is the capital of France?');
    },
  },
  {
    title: 'tool call round trip',
    async run({ server, model, mode }) {
      server.enqueue(fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }]));
      const question = { role: 'user' as const, content: 'What is the weather in Paris?' };
      const first = await answer(model, request([question], { tools: [weatherTool] }), mode);
      const calls = callsOf(first.output);
      expect(calls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([['get_weather', { city: 'Paris' }]]);
      expect(calls[0]?.callId, 'a call needs an id to match its result').toMatch(/\S/);
      expect(lastBody(server)).toContain('get_weather');
      expect(lastBody(server)).toContain('The weather in a city.');

      server.enqueue(fakeText('It is sunny in Paris.'));
      const result = { type: 'function_call_result' as const, name: 'get_weather', callId: calls[0]!.callId, status: 'completed' as const, output: 'Sunny, 21 degrees' };
      const second = await answer(model, request([question, ...first.output, result], { tools: [weatherTool] }), mode);
      expect(textOf(second.output)).toBe('It is sunny in Paris.');
      expect(lastBody(server), 'the tool result goes back to the model').toContain('Sunny, 21 degrees');
    },
  },
  {
    title: 'parallel tool calls',
    async run({ server, model, mode }) {
      server.enqueue(
        fakeToolCalls([
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_time', arguments: { city: 'Tokyo' } },
        ]),
      );
      const { output } = await answer(model, request('Weather in Paris and time in Tokyo?', { tools: [weatherTool, timeTool] }), mode);
      const calls = callsOf(output);
      expect(calls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
        ['get_weather', { city: 'Paris' }],
        ['get_time', { city: 'Tokyo' }],
      ]);
      expect(new Set(calls.map((call) => call.callId)).size, 'each call has its own id').toBe(2);
    },
  },
  {
    title: 'structured output',
    async run({ server, model, mode, options }) {
      const json = '{"city":"Paris","celsius":21}';
      server.enqueue(options.structuredOutputTurn?.(json) ?? fakeText(json));
      const outputType = { type: 'json_schema' as const, name: 'weather_report', strict: true, schema: STRUCTURED_SCHEMA };
      const { output } = await answer(model, request('Report the weather in Paris.', { outputType }), mode);
      expect(JSON.parse(textOf(output))).toEqual({ city: 'Paris', celsius: 21 });
      expect(lastBody(server), 'the schema is sent').toContain('celsius');
    },
  },
  {
    title: 'streaming event order',
    modes: ['streamed'],
    async run({ server, model, mode }) {
      server.enqueue(fakeText('one two three four five six', { stream: { deltaChunks: 3 } }));
      const { events, output } = await answer(model, request('Count to six.'), mode);
      // Raw `model` events may come anywhere (the reference passes the vendor's closing event on after response_done).
      const kinds = events.map((event) => event.type).filter((kind) => kind !== 'model');
      expect(kinds[kinds.length - 1], 'response_done ends the stream').toBe('response_done');
      const started = kinds.indexOf('response_started');
      if (started !== -1) expect(started, 'response_started comes first').toBe(0);
      const deltas = events.flatMap((event) => (event.type === 'output_text_delta' ? [event.delta] : []));
      expect(deltas.length, 'text arrives in pieces as it is produced').toBeGreaterThanOrEqual(2);
      expect(deltas.join('')).toBe(textOf(output));
      expect(textOf(output)).toBe('one two three four five six');
    },
  },
  {
    title: 'the same items streamed or not',
    modes: ['plain'],
    async run({ server, model }) {
      const turn = () => fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Oslo' } }], { text: 'Let me check.' });
      server.enqueue(turn(), turn());
      const plain = await answer(model, request('Weather in Oslo?', { tools: [weatherTool] }), 'plain');
      const streamed = await answer(model, request('Weather in Oslo?', { tools: [weatherTool] }), 'streamed');
      expect(comparable(streamed.output)).toEqual(comparable(plain.output));
    },
  },
  {
    title: 'abort mid-stream',
    modes: ['streamed'],
    async run({ server, model }) {
      server.enqueue(fakeText('a long answer that the caller stops reading half way through', { stream: { deltaChunks: 12, hangAfterEvents: 6 } }));
      const index = server.requests.length;
      const controller = new AbortController();
      const seen: string[] = [];
      const outcome = await (async () => {
        for await (const event of model.getStreamedResponse(request('Say something long.', { signal: controller.signal }))) {
          seen.push(event.type);
          if (event.type === 'output_text_delta') controller.abort();
        }
      })().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(seen, 'a delta arrived while the server was still streaming').toContain('output_text_delta');
      expect(seen).not.toContain('response_done');
      if (outcome !== undefined) expectAbort(outcome);
      expect((await server.settled(index)).outcome, 'the HTTP request was aborted').toBe('client_closed');
    },
  },
  {
    title: 'abort before the answer',
    async run({ server, model, mode }) {
      server.enqueue(fakeText('too late', { delayMs: 10_000 }));
      const index = server.requests.length;
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      expectAbort(await failure(answer(model, request('Take your time.', { signal: controller.signal }), mode)));
      expect((await server.settled(index)).outcome, 'the HTTP request was aborted').toBe('client_closed');
    },
  },
  {
    title: 'usage',
    async run({ server, model, mode }) {
      server.enqueue(fakeText('ok', { usage: { inputTokens: 31, outputTokens: 9 } }));
      const { usage } = await answer(model, request('Say ok.'), mode);
      expect([usage.inputTokens, usage.outputTokens, usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0)]).toEqual([31, 9, 40]);
    },
  },
  {
    title: 'refusal',
    async run({ server, model, mode }) {
      server.enqueue(fakeRefusal('I cannot help with that.'));
      const { output } = await answer(model, request('Help me with something bad.'), mode);
      expect(refusalOf(output)).toContain('I cannot help with that.');
      expect(callsOf(output)).toEqual([]);
    },
  },
  {
    title: 'errors carry the status and whether to retry',
    async run({ server, model, mode }) {
      for (const [status, retryable] of [
        [429, true],
        [400, false],
        [500, true],
      ] as const) {
        server.enqueue(fakeError(status));
        const error = await failure(answer(model, request('Hello?'), mode));
        expectProviderError(error);
        expect([error.status, error.retryable], `HTTP ${status}`).toEqual([status, retryable]);
      }
    },
  },
  {
    title: 'a call to an unknown tool',
    async run({ server, model, mode }) {
      server.enqueue(fakeToolCalls([{ name: 'launch_rocket', arguments: { target: 'moon' } }]));
      const { output } = await answer(model, request('Go to the moon.', { tools: [weatherTool] }), mode);
      // The provider passes it on; the run loop answers the model (or raises, as configured).
      expect(callsOf(output).map((call) => call.name)).toEqual(['launch_rocket']);
    },
  },
  {
    title: 'malformed tool arguments',
    async run({ server, model, mode }) {
      server.enqueue(fakeToolCalls([{ name: 'get_weather', arguments: '{"city": "Par' }]));
      const { output } = await answer(model, request('Weather?', { tools: [weatherTool] }), mode);
      // Kept exactly as sent: the run loop tells the model its arguments were not valid JSON.
      expect(callsOf(output).map((call) => [call.name, call.arguments])).toEqual([['get_weather', '{"city": "Par']]);
    },
  },
  {
    title: 'an empty response',
    async run({ server, model, mode }) {
      server.enqueue(fakeResponse([]));
      const { output } = await answer(model, request('Say nothing.'), mode);
      expect(textOf(output)).toBe('');
      expect(callsOf(output)).toEqual([]);
    },
  },
  {
    title: 'a stream that ends before its final event',
    modes: ['streamed'],
    async run({ server, model, mode }) {
      server.enqueue(fakeText('an answer cut short by the server', { stream: { deltaChunks: 6, endAfterEvents: 3 } }));
      expectProviderError(await failure(answer(model, request('Answer.'), mode)));
    },
  },
  {
    title: 'a stream whose connection drops',
    modes: ['streamed'],
    async run({ server, model, mode }) {
      server.enqueue(fakeText('an answer whose connection drops', { stream: { deltaChunks: 6, cutAfterEvents: 3 } }));
      expectProviderError(await failure(answer(model, request('Answer.'), mode)));
    },
  },
];

/** An abort is reported as one: the provider's error with reason `aborted`, or the platform's `AbortError`. */
function expectAbort(error: unknown): void {
  const isAbort = (isModelProviderError(error) && error.reason === 'aborted') || (error instanceof Error && error.name === 'AbortError');
  expect(isAbort, `expected an abort, got ${String(error)}`).toBe(true);
}
