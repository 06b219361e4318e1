import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { afterEach, expect } from 'vitest';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from '../src/index.js';

type AnthropicModel = ReturnType<ReturnType<typeof createAnthropic>>;
type GeminiModel = ReturnType<ReturnType<typeof createGoogleGenerativeAI>>;
/** The AI SDK's (spec v4) call options, the same type for both vendors' models. */
export type CallOptions = Parameters<AnthropicModel['doGenerate']>[0];
export type StreamPart = Awaited<ReturnType<AnthropicModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A fake model server with these turns, closed after the test. */
export async function serve(...turns: FakeTurn[]): Promise<FakeModelServer> {
  const server = await startFakeModelServer({ turns });
  servers.push(server);
  return server;
}

export function anthropicModel(server: FakeModelServer): AnthropicModel {
  return createAnthropic({ baseURL: server.anthropicBaseURL, apiKey: 'test' })('claude-sonnet-4-5');
}

export function geminiModel(server: FakeModelServer): GeminiModel {
  return createGoogleGenerativeAI({ baseURL: server.googleBaseURL, apiKey: 'test' })('gemini-2.5-flash');
}

export const weatherTool: NonNullable<CallOptions['tools']>[number] = {
  type: 'function',
  name: 'weather',
  description: 'The weather in a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** One user message and the weather tool. */
export const hello: CallOptions = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], tools: [weatherTool] };

/** A system prompt, a user question, an assistant tool call and its result, and the weather tool. */
export const conversation: CallOptions = {
  prompt: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_paris', toolName: 'weather', input: { city: 'Paris' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_paris', toolName: 'weather', output: { type: 'json', value: { celsius: 21 } } }] },
  ],
  tools: [weatherTool],
  maxOutputTokens: 256,
  temperature: 0.5,
};

/** Reads a stream to its end; a stream that errors ends the list with `{ type: 'thrown', error }`. */
export async function readAll(stream: ReadableStream<StreamPart>): Promise<Array<StreamPart | { type: 'thrown'; error: unknown }>> {
  const parts: Array<StreamPart | { type: 'thrown'; error: unknown }> = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return parts;
      parts.push(value);
    }
  } catch (error) {
    parts.push({ type: 'thrown', error });
    return parts;
  }
}

/** The parts of one type. */
export function ofType<T extends string>(parts: ReadonlyArray<{ type: string }>, type: T): Array<Extract<StreamPart, { type: T }>> {
  return parts.filter((part) => part.type === type) as Array<Extract<StreamPart, { type: T }>>;
}

/** SSE frames of a raw response as [event name | null, parsed data]. */
export async function sseFrames(response: Response): Promise<Array<[string | null, any]>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? null;
      return [event, JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6))];
    });
}

/** The fields of the AI SDK's `APICallError` (`@ai-sdk/provider`, not a dependency here, so matched by name). */
export interface ApiCallErrorLike extends Error {
  readonly statusCode?: number;
  readonly isRetryable: boolean;
  readonly responseBody?: string;
  readonly responseHeaders?: Record<string, string>;
}

/** Runs `fn` and returns the `APICallError` it threw (fails the test if it threw something else or nothing). */
export async function apiCallError(fn: () => unknown): Promise<ApiCallErrorLike> {
  try {
    await fn();
  } catch (error) {
    expect((error as Error).name).toBe('AI_APICallError');
    return error as ApiCallErrorLike;
  }
  throw new Error('expected the call to throw');
}
