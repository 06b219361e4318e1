import { Usage, type ModelResponse } from '@baton/types';
import { describe, expect, it } from 'vitest';
import {
  InvalidScriptedModelStepError,
  ScriptedModel,
  UnconsumedModelStepsError,
  UnexpectedModelCallError,
  assistantMessage,
  functionCall,
  modelError,
  modelResponder,
  modelResponse,
  type RecordedModelCall,
} from '../src/index.js';
import { caught, collect, request } from './helpers.js';

describe('ScriptedModel playback', () => {
  it('plays steps first in, first out', async () => {
    const model = new ScriptedModel([[assistantMessage('one')], [assistantMessage('two')]]);
    model.enqueue([assistantMessage('three')]);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await model.getResponse(request());
      const item = response.output[0];
      texts.push(item?.type === 'message' ? (item.content[0] as { text: string }).text : '?');
    }
    expect(texts).toEqual(['one', 'two', 'three']);
    expect(model.remainingSteps).toBe(0);
  });

  it('gives the output-list shorthand one request of usage and a scripted response id', async () => {
    const output = [functionCall('lookup', {}, { callId: 'c1' })];
    const model = new ScriptedModel([output, [assistantMessage('done')]]);
    const first = await model.getResponse(request());
    const second = await model.getResponse(request());
    expect(first.output).toEqual(output);
    expect(first.usage).toBeInstanceOf(Usage);
    expect((first.usage as Usage).toJSON()).toMatchObject({ requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(first.responseId).toBe('scripted-response-1');
    expect(second.responseId).toBe('scripted-response-2');
  });

  it.each<{ label: string; response: ModelResponse; responseId: string }>([
    { label: 'keeps a given responseId', response: { output: [], usage: new Usage({ inputTokens: 5 }), responseId: 'resp_x' }, responseId: 'resp_x' },
    { label: 'fills in a missing responseId', response: { output: [], usage: new Usage({ inputTokens: 5 }) }, responseId: 'scripted-response-1' },
  ])('a full response $label and keeps its usage', async ({ response, responseId }) => {
    const model = new ScriptedModel([response]);
    const result = await model.getResponse(request());
    expect(result.responseId).toBe(responseId);
    expect(result.usage).toEqual(new Usage({ inputTokens: 5 }));
  });

  it('keeps an explicit zero-request usage as it is', async () => {
    const model = new ScriptedModel([{ output: [], usage: new Usage({ requests: 0 }) }]);
    expect((await model.getResponse(request())).usage.requests).toBe(0);
  });

  it('accepts explicit modelResponse steps', async () => {
    const model = new ScriptedModel([modelResponse([assistantMessage('x')])]);
    expect((await model.getResponse(request())).output).toEqual([assistantMessage('x')]);
  });

  it.each<{ label: string; input: unknown }>([
    { label: 'a string', input: 'hello' },
    { label: 'null', input: null },
    { label: 'an object with no output or step type', input: { foo: 1 } },
    { label: 'an unknown step type', input: { type: 'sleep' } },
  ])('rejects $label as a scripted input', ({ input }) => {
    expect(() => new ScriptedModel([input as never])).toThrow(InvalidScriptedModelStepError);
  });
});

describe('ScriptedModel call records', () => {
  it('records index, streamed flag and the request of every call', async () => {
    const model = new ScriptedModel([[assistantMessage('a')], [assistantMessage('b')], [assistantMessage('c')]]);
    const first = request({ input: 'first', systemInstructions: 'be brief' });
    const second = request({ input: [{ role: 'user', content: 'second' }] });
    await model.getResponse(first);
    await collect(model.getStreamedResponse(second));
    await model.getResponse(request({ input: 'third' }));

    expect(model.calls.map((c) => [c.index, c.streamed])).toEqual([
      [0, false],
      [1, true],
      [2, false],
    ]);
    expect(model.calls[0]!.request).toEqual(first);
    expect(model.calls[1]!.request).toEqual(second);
    expect(model.firstCall).toEqual(model.calls[0]);
    expect(model.lastCall).toEqual(model.calls[2]);
    expect(model.lastCall!.request.input).toBe('third');
  });

  it('keeps a snapshot of the request that later mutation does not change', async () => {
    const model = new ScriptedModel([[assistantMessage('a')]]);
    const req = request({ input: 'before' });
    await model.getResponse(req);
    req.input = 'after';
    expect(model.calls[0]!.request.input).toBe('before');
    expect(Object.isFrozen(model.calls[0])).toBe(true);
  });

  it('has no calls before it is used', () => {
    const model = new ScriptedModel();
    expect(model.calls).toEqual([]);
    expect(model.firstCall).toBeUndefined();
    expect(model.lastCall).toBeUndefined();
  });
});

describe('ScriptedModel when the script runs out', () => {
  it('throws UnexpectedModelCallError on a non-streamed call', async () => {
    const model = new ScriptedModel([[assistantMessage('only')]]);
    await model.getResponse(request());
    const error = await caught(() => model.getResponse(request()));
    expect(error).toBeInstanceOf(UnexpectedModelCallError);
    expect(error.name).toBe('UnexpectedModelCallError');
    expect(error).toMatchObject({ callIndex: 1, streamed: false });
    expect(error.message).toContain('#2');
    expect(model.calls).toHaveLength(2);
  });

  it('throws UnexpectedModelCallError on a streamed call', async () => {
    const model = new ScriptedModel();
    const error = await caught(() => collect(model.getStreamedResponse(request())));
    expect(error).toBeInstanceOf(UnexpectedModelCallError);
    expect(error).toMatchObject({ callIndex: 0, streamed: true });
  });
});

describe('ScriptedModel.assertComplete', () => {
  it('throws UnconsumedModelStepsError while steps remain, and passes once all are used', async () => {
    const model = new ScriptedModel([[assistantMessage('a')], [assistantMessage('b')]]);
    const error = await caught(() => model.assertComplete());
    expect(error).toBeInstanceOf(UnconsumedModelStepsError);
    expect(error.name).toBe('UnconsumedModelStepsError');
    expect(error).toMatchObject({ remainingSteps: 2 });
    await model.getResponse(request());
    expect(() => model.assertComplete()).toThrow(/1 unconsumed scripted step\./);
    await model.getResponse(request());
    expect(() => model.assertComplete()).not.toThrow();
  });
});

describe('modelError', () => {
  it('rejects a non-streamed call with the scripted error itself', async () => {
    const boom = new Error('rate limited');
    const model = new ScriptedModel([modelError(boom), [assistantMessage('after')]]);
    expect(await caught(() => model.getResponse(request()))).toBe(boom);
    expect((await model.getResponse(request())).responseId).toBe('scripted-response-2');
  });

  it('fails a streamed call with the scripted error', async () => {
    const boom = new TypeError('socket closed');
    const model = new ScriptedModel([modelError(boom)]);
    expect(await caught(() => collect(model.getStreamedResponse(request())))).toBe(boom);
  });
});

describe('modelResponder', () => {
  it('answers from the recorded call, sync or async, as a list or a full response', async () => {
    const seen: RecordedModelCall[] = [];
    const model = new ScriptedModel([
      modelResponder((call) => {
        seen.push(call);
        return [assistantMessage(`you said ${String(call.request.input)}`)];
      }),
      modelResponder(async (call) => {
        seen.push(call);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { output: [assistantMessage(`call ${call.index}`)], usage: new Usage({ inputTokens: 3 }), responseId: 'mine' };
      }),
    ]);
    const first = await model.getResponse(request({ input: 'ping' }));
    const second = await model.getResponse(request({ input: 'pong' }));
    expect(first.output).toEqual([assistantMessage('you said ping')]);
    expect(first.responseId).toBe('scripted-response-1');
    expect(second.output).toEqual([assistantMessage('call 1')]);
    expect(second.responseId).toBe('mine');
    expect(seen.map((c) => [c.index, c.streamed, c.request.input])).toEqual([
      [0, false, 'ping'],
      [1, false, 'pong'],
    ]);
    expect(seen[0]).toEqual(model.calls[0]);
  });

  it('sees streamed: true when the call is streamed', async () => {
    let streamed: boolean | undefined;
    const model = new ScriptedModel([
      modelResponder((call) => {
        streamed = call.streamed;
        return [assistantMessage('x')];
      }),
    ]);
    await collect(model.getStreamedResponse(request()));
    expect(streamed).toBe(true);
  });

  it('propagates a responder’s error', async () => {
    const model = new ScriptedModel([
      modelResponder(() => {
        throw new Error('responder failed');
      }),
    ]);
    expect((await caught(() => model.getResponse(request()))).message).toBe('responder failed');
  });

  it.each<{ label: string; answer: unknown }>([
    { label: 'without an output array', answer: { usage: new Usage() } },
    { label: 'whose usage is plain data, not a Usage', answer: { output: [], usage: {} } },
    { label: 'that is not an object', answer: 'done' },
  ])('rejects a responder result $label, naming the call', async ({ answer }) => {
    const model = new ScriptedModel([modelResponder(() => answer as ModelResponse)]);
    const error = await caught(() => model.getResponse(request()));
    expect(error).toBeInstanceOf(InvalidScriptedModelStepError);
    expect(error).toMatchObject({ reason: 'invalid_response', callIndex: 0 });
    expect(error.message).toContain('call #1');
  });
});
