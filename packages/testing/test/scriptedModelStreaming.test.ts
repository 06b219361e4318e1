import { Usage, type ModelStreamEvent } from '@baton/types';
import { describe, expect, it } from 'vitest';
import { InvalidScriptedModelStepError, ScriptedModel, assistantMessage, functionCall, modelStream } from '../src/index.js';
import { caught, collect, request } from './helpers.js';

const scripted: ModelStreamEvent[] = [
  { type: 'response_started' },
  { type: 'output_text_delta', delta: 'Hel' },
  { type: 'model', event: { raw: true } },
  { type: 'output_text_delta', delta: 'lo' },
  { type: 'response_done', response: { id: 'r1', usage: { inputTokens: 1 }, output: [assistantMessage('Hello')] } },
];

describe('modelStream', () => {
  it.each<{ label: string; step: () => ReturnType<typeof modelStream> }>([
    { label: 'a list', step: () => modelStream(scripted) },
    {
      label: 'an async iterable',
      step: () =>
        modelStream(
          (async function* () {
            for (const event of scripted) yield event;
          })(),
        ),
    },
    { label: 'a function of the call', step: () => modelStream(() => scripted) },
  ])('plays back raw events from $label on a streamed call', async ({ step }) => {
    const model = new ScriptedModel([step()]);
    expect(await collect(model.getStreamedResponse(request()))).toEqual(scripted);
    expect(model.calls[0]).toMatchObject({ index: 0, streamed: true });
  });

  it('passes the recorded call to a function script', async () => {
    const model = new ScriptedModel([modelStream((call) => [{ type: 'output_text_delta', delta: `call ${call.index} ${String(call.request.input)}` }])]);
    expect(await collect(model.getStreamedResponse(request({ input: 'x' })))).toEqual([{ type: 'output_text_delta', delta: 'call 0 x' }]);
  });

  it('fails a non-streamed call with InvalidScriptedModelStepError', async () => {
    const model = new ScriptedModel([modelStream(scripted)]);
    const error = await caught(() => model.getResponse(request()));
    expect(error).toBeInstanceOf(InvalidScriptedModelStepError);
    expect(error.name).toBe('InvalidScriptedModelStepError');
    expect(error.message).toMatch(/not streamed/);
  });
});

describe('auto-streaming a plain response', () => {
  it('emits response_started, one output_text_delta per output_text part, then response_done', async () => {
    const message = {
      ...assistantMessage('ignored', { id: 'msg_1' }),
      content: [
        { type: 'output_text' as const, text: 'Hello, ' },
        { type: 'refusal' as const, refusal: 'not a delta' },
        { type: 'output_text' as const, text: 'world' },
      ],
    };
    const call = functionCall('lookup', { q: 1 }, { callId: 'c1' });
    const second = assistantMessage('!');
    const output = [message, call, second];
    const model = new ScriptedModel([output]);

    const events = await collect(model.getStreamedResponse(request()));

    expect(events.map((e) => e.type)).toEqual(['response_started', 'output_text_delta', 'output_text_delta', 'output_text_delta', 'response_done']);
    expect(events.slice(1, 4)).toEqual([
      { type: 'output_text_delta', delta: 'Hello, ', itemId: 'msg_1' },
      { type: 'output_text_delta', delta: 'world', itemId: 'msg_1' },
      { type: 'output_text_delta', delta: '!' },
    ]);
    const done = events[4];
    if (done?.type !== 'response_done') throw new Error('no response_done');
    expect(done.response.id).toBe('scripted-response-1');
    expect(done.response.output).toEqual(output);
    expect(done.response.usage).toEqual({ requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it('streams a message written without type (role only)', async () => {
    const model = new ScriptedModel([[{ role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'untyped' }] }]]);
    const deltas = (await collect(model.getStreamedResponse(request()))).filter((e) => e.type === 'output_text_delta');
    expect(deltas).toEqual([{ type: 'output_text_delta', delta: 'untyped' }]);
  });

  it('emits no delta for a response with only tool calls', async () => {
    const model = new ScriptedModel([[functionCall('a'), functionCall('b')]]);
    expect((await collect(model.getStreamedResponse(request()))).map((e) => e.type)).toEqual(['response_started', 'response_done']);
  });

  it('carries a full response’s id, request id, usage and provider data into response_done', async () => {
    const model = new ScriptedModel([
      { output: [assistantMessage('x')], usage: new Usage({ inputTokens: 4, outputTokens: 6 }), responseId: 'resp_9', requestId: 'req_9', providerData: { p: 1 } },
    ]);
    const done = (await collect(model.getStreamedResponse(request()))).at(-1);
    if (done?.type !== 'response_done') throw new Error('no response_done');
    expect(done.response).toMatchObject({ id: 'resp_9', requestId: 'req_9', providerData: { p: 1 } });
    expect(done.response.usage).toMatchObject({ requests: 1, inputTokens: 4, outputTokens: 6, totalTokens: 10 });
  });
});
