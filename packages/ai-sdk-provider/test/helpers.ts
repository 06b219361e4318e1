import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { ModelRequest, ModelStreamEvent } from '@baton/types';

/** What a scripted language model answers to one call: a result, parts to stream, an error to throw, or a function of the options. */
export type Turn<Options, Result, Part> =
  | { readonly kind: 'generate'; readonly result: Result }
  | { readonly kind: 'stream'; readonly parts: readonly Part[]; readonly headers?: Record<string, string>; readonly hangAfter?: number }
  | { readonly kind: 'throw'; readonly error: unknown }
  | { readonly kind: 'hang' }
  | { readonly kind: 'respond'; readonly respond: (options: Options) => Turn<Options, Result, Part> };

export type V4Turn = Turn<LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart>;
export type V3Turn = Turn<LanguageModelV3CallOptions, LanguageModelV3GenerateResult, LanguageModelV3StreamPart>;

interface Recorder<Options> {
  /** The call options each call received, in order. */
  readonly calls: Options[];
  /** Whether each stream was cancelled by its reader, by call index. */
  readonly cancelled: boolean[];
}

/**
 * A hand-written language model of specification v4: it answers each call with the next turn
 * and records the call options it receives (as a real provider package's model would receive them).
 */
export function v4Model(turns: V4Turn[], identity: { provider?: string; modelId?: string } = {}): LanguageModelV4 & Recorder<LanguageModelV4CallOptions> {
  const recorder = { calls: [] as LanguageModelV4CallOptions[], cancelled: [] as boolean[] };
  const model: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: identity.provider ?? 'fake.chat',
    modelId: identity.modelId ?? 'fake-model',
    supportedUrls: {},
    doGenerate: async (options) => {
      recorder.calls.push(options);
      const turn = await settle(turns, options);
      if (turn.kind !== 'generate') throw new Error(`scripted model: expected a generate turn, got ${turn.kind}`);
      return turn.result;
    },
    doStream: async (options) => {
      const index = recorder.calls.push(options) - 1;
      const turn = await settle(turns, options);
      if (turn.kind !== 'stream') throw new Error(`scripted model: expected a stream turn, got ${turn.kind}`);
      return { stream: partStream(turn.parts, turn.hangAfter, () => (recorder.cancelled[index] = true)), ...(turn.headers ? { response: { headers: turn.headers } } : {}) };
    },
  };
  return Object.assign(model, recorder);
}

/** The same for specification v3. */
export function v3Model(turns: V3Turn[], identity: { provider?: string; modelId?: string } = {}): LanguageModelV3 & Recorder<LanguageModelV3CallOptions> {
  const recorder = { calls: [] as LanguageModelV3CallOptions[], cancelled: [] as boolean[] };
  const model: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: identity.provider ?? 'fake.chat',
    modelId: identity.modelId ?? 'fake-model',
    supportedUrls: {},
    doGenerate: async (options) => {
      recorder.calls.push(options);
      const turn = await settle(turns, options);
      if (turn.kind !== 'generate') throw new Error(`scripted model: expected a generate turn, got ${turn.kind}`);
      return turn.result;
    },
    doStream: async (options) => {
      const index = recorder.calls.push(options) - 1;
      const turn = await settle(turns, options);
      if (turn.kind !== 'stream') throw new Error(`scripted model: expected a stream turn, got ${turn.kind}`);
      return { stream: partStream(turn.parts, turn.hangAfter, () => (recorder.cancelled[index] = true)), ...(turn.headers ? { response: { headers: turn.headers } } : {}) };
    },
  };
  return Object.assign(model, recorder);
}

async function settle<O, R, P>(turns: Turn<O, R, P>[], options: O): Promise<Exclude<Turn<O, R, P>, { kind: 'respond' }>> {
  let turn = turns.shift();
  while (turn?.kind === 'respond') turn = turn.respond(options);
  if (turn === undefined) throw new Error('scripted model: no turn left');
  if (turn.kind === 'throw') throw turn.error;
  if (turn.kind === 'hang') {
    // Like a real request: only the abort signal ends the wait.
    const signal = (options as { abortSignal?: AbortSignal }).abortSignal;
    await new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
  }
  return turn as Exclude<Turn<O, R, P>, { kind: 'respond' }>;
}

/** A stream of parts; with `hangAfter`, it sends that many and then waits until cancelled. */
function partStream<P>(parts: readonly P[], hangAfter: number | undefined, onCancel: () => void): ReadableStream<P> {
  let index = 0;
  return new ReadableStream<P>({
    pull(controller) {
      if (hangAfter !== undefined && index >= hangAfter) return new Promise<void>(() => {});
      const part = parts[index++];
      if (part === undefined) controller.close();
      else controller.enqueue(part);
      return undefined;
    },
    cancel() {
      onCancel();
    },
  });
}

/** A v4 generate turn (defaults: finish `stop`, 10 + 5 tokens). */
export function v4Generate(content: LanguageModelV4Content[], extra: Partial<Omit<LanguageModelV4GenerateResult, 'content'>> = {}): V4Turn {
  return { kind: 'generate', result: { content, finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(10, 5), warnings: [], ...extra } };
}

/** A v3 generate turn. */
export function v3Generate(content: LanguageModelV3Content[], extra: Partial<Omit<LanguageModelV3GenerateResult, 'content'>> = {}): V3Turn {
  return { kind: 'generate', result: { content, finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(10, 5), warnings: [], ...extra } };
}

export function stream<P>(parts: P[], options: { headers?: Record<string, string>; hangAfter?: number } = {}) {
  return { kind: 'stream' as const, parts, ...options };
}

export function usage(input: number, output: number, extra: { cacheRead?: number; cacheWrite?: number; reasoning?: number } = {}) {
  return {
    inputTokens: { total: input, noCache: undefined, cacheRead: extra.cacheRead, cacheWrite: extra.cacheWrite },
    outputTokens: { total: output, text: undefined, reasoning: extra.reasoning },
  };
}

/** The parts of a plain streamed text answer. */
export function textStreamParts(text: string[], finish: { unified: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other'; raw?: string } = { unified: 'stop', raw: 'stop' }) {
  return [
    { type: 'stream-start' as const, warnings: [] },
    { type: 'response-metadata' as const, id: 'resp_1', modelId: 'fake-model' },
    { type: 'text-start' as const, id: 't0' },
    ...text.map((delta) => ({ type: 'text-delta' as const, id: 't0', delta })),
    { type: 'text-end' as const, id: 't0' },
    { type: 'finish' as const, finishReason: { unified: finish.unified, raw: finish.raw }, usage: usage(3, 2) },
  ];
}

/** A model request with defaults. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { input: 'hi', modelSettings: {}, tools: [], handoffs: [], outputType: 'text', tracing: false, ...overrides };
}

export async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

export async function collectUntilError(events: AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; error: unknown }> {
  const out: ModelStreamEvent[] = [];
  try {
    for await (const event of events) out.push(event);
  } catch (error) {
    return { events: out, error };
  }
  throw new Error(`the stream did not fail (got ${out.length} events)`);
}

export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The final event of a streamed response. */
export function doneOf(events: ModelStreamEvent[]) {
  const done = events.at(-1);
  if (done?.type !== 'response_done') throw new Error(`the last event is ${done?.type}, not response_done`);
  return done.response;
}

export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
