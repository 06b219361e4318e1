import { describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { fakeText } from '@baton/testing';
import { OpenAIChatCompletionsModel, OpenAIResponsesModel } from '../src/index.js';
import { APIS, clientFor, fakeServer, request } from './helpers.js';

/**
 * A user's wrapped or mocked client: shaped like the `openai` client, but `create` returns a plain
 * promise (no `withResponse()`), as many logging or caching wrappers do.
 */
function wrapped(real: OpenAI, seen: string[]): OpenAI {
  const plain = (create: (body: unknown, options: unknown) => PromiseLike<unknown>, label: string) => (body: unknown, options: unknown) => {
    seen.push(label);
    return Promise.resolve(create(body, options));
  };
  return {
    responses: { create: plain((b, o) => real.responses.create(b as never, o as never), 'responses') },
    chat: { completions: { create: plain((b, o) => real.chat.completions.create(b as never, o as never), 'chat') } },
  } as unknown as OpenAI;
}

describe.each(APIS)('a client whose create() returns a plain promise (%s)', (api) => {
  it.each([false, true])('answers (streamed: %s)', async (streamed) => {
    const server = await fakeServer(fakeText('hello there'));
    const seen: string[] = [];
    const client = wrapped(clientFor(server), seen);
    const model = api === 'responses' ? new OpenAIResponsesModel(client, 'gpt-4.1') : new OpenAIChatCompletionsModel(client, 'gpt-4.1');
    let text = '';
    if (streamed) {
      for await (const event of model.getStreamedResponse(request())) if (event.type === 'output_text_delta') text += event.delta;
    } else {
      const response = await model.getResponse(request());
      const message = response.output.find((item) => item.type === 'message') as { content: Array<{ text?: string }> } | undefined;
      text = message?.content.map((part) => part.text ?? '').join('') ?? '';
    }
    expect(text).toBe('hello there');
    expect(seen).toEqual([api === 'responses' ? 'responses' : 'chat']);
  });
});
