import { describe, expect, it } from 'vitest';
import { fakeRaw } from '@baton/testing';
import { ModelBehaviorError, type AgentInputItem, type ModelResponse } from '@baton/types';
import { collect, collectUntilError, fakeServer, modelFor, request } from './helpers.js';

// A spoken answer (`modalities: ['text', 'audio']`) over real HTTP: it becomes an assistant message
// with one audio part (data as the content, id and transcript as providerData), whole or streamed,
// and the next request sends it back by its id, as the API asks.

const spoken = { id: 'audio_1', data: 'UklGRg==', transcript: 'Hello there', expires_at: 1700000000 };
const completion = (message: object) =>
  fakeRaw(JSON.stringify({ id: 'chatcmpl-a', object: 'chat.completion', created: 1, model: 'gpt-4o-audio-preview', choices: [{ index: 0, message, finish_reason: 'stop' }] }));
const sse = (...chunks: object[]) =>
  fakeRaw(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n', { contentType: 'text/event-stream' });
const chunk = (delta: object) => ({ id: 'chatcmpl-a', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-audio-preview', choices: [{ index: 0, delta, finish_reason: null }] });
const audioMessage = { id: 'chatcmpl-a', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'audio', audio: spoken.data, providerData: { id: 'audio_1', transcript: 'Hello there', expires_at: 1700000000 } }] };

describe('Chat Completions audio', () => {
  it('makes a spoken answer an audio message and sends it back by id on the next turn', async () => {
    const server = await fakeServer(completion({ role: 'assistant', content: null, audio: spoken }), completion({ role: 'assistant', content: 'ok' }));
    const model = modelFor(server, 'chat_completions', 'gpt-4o-audio-preview');
    const first: ModelResponse = await model.getResponse(request({ input: [{ role: 'user', content: 'Say hello' }] }));
    expect(first.output).toEqual([audioMessage]);

    const history: AgentInputItem[] = [{ role: 'user', content: 'Say hello' }, ...(first.output as AgentInputItem[]), { role: 'user', content: 'Again' }];
    await model.getResponse(request({ input: history }));
    expect(server.requests[1]!.body.messages).toEqual([
      { role: 'user', content: 'Say hello' },
      { role: 'assistant', content: [], audio: { id: 'audio_1', transcript: 'Hello there', expires_at: 1700000000 } },
      { role: 'user', content: 'Again' },
    ]);
  });

  it('sends user audio as input_audio (wav or mp3 only)', async () => {
    const server = await fakeServer(completion({ role: 'assistant', content: 'heard' }));
    await modelFor(server, 'chat_completions').getResponse(request({ input: [{ role: 'user', content: [{ type: 'audio', audio: 'SUQz', format: 'mp3' }] }] }));
    expect(server.requests[0]!.body.messages).toEqual([{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } }] }]);
  });

  it('assembles a streamed spoken answer from its pieces', async () => {
    const server = await fakeServer(
      sse(
        chunk({ role: 'assistant', audio: { id: 'audio_1', data: 'UklG', transcript: 'Hello ', expires_at: 1700000000 } }),
        chunk({ audio: { data: 'Rg==', transcript: 'there' } }),
        { id: 'chatcmpl-a', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-audio-preview', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      ),
    );
    const events = await collect(modelFor(server, 'chat_completions').getStreamedResponse(request()));
    const done = events.find((event) => event.type === 'response_done');
    expect(done?.type === 'response_done' && done.response.output).toEqual([audioMessage]);
  });

  it.each([
    ['a piece that is not an object', { audio: 'UklG' }, 'expected delta.audio to be an object'],
    ['data that is not text', { audio: { data: 5 } }, 'expected delta.audio.data to be a string'],
    ['a transcript that is not text', { audio: { data: 'UklG', transcript: 5 } }, 'expected delta.audio.transcript to be a string'],
    ['audio that never had data', { audio: { id: 'audio_1', transcript: 'Hi' } }, 'ended with audio output but no audio data'],
  ])('fails a stream with %s as a ModelBehaviorError', async (_label, delta, message) => {
    const server = await fakeServer(sse(chunk({ role: 'assistant', ...delta })));
    const { error } = await collectUntilError(modelFor(server, 'chat_completions').getStreamedResponse(request()));
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toContain(message);
  });
});
