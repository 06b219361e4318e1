import { Usage } from '@baton/types';
import { describe, expect, it, vi } from 'vitest';
import {
  InvalidScriptedModelStepError,
  ScriptedModel,
  ScriptedModelRequestAbortedError,
  assistantMessage,
  modelError,
  modelResponse,
  modelStream,
  modelStreamResponder,
} from '../src/index.js';
import { caught, collect, request } from './helpers.js';

describe('scripted inputs are checked when queued', () => {
  it.each<{ label: string; input: unknown; reason: string; stepType?: string }>([
    { label: 'a number', input: 42, reason: 'invalid_input' },
    { label: 'an object that is no step or response', input: { foo: 1 }, reason: 'invalid_input' },
    { label: 'an unknown step type', input: { type: 'sleep' }, reason: 'unknown_step_type', stepType: 'sleep' },
    { label: 'a response step without a response', input: { type: 'response' }, reason: 'missing_response' },
    { label: 'a response whose usage is plain data', input: { output: [], usage: { requests: 1 } }, reason: 'invalid_response' },
    { label: 'a response without output', input: { usage: new Usage() }, reason: 'invalid_response' },
    { label: 'an error step without an error', input: { type: 'error' }, reason: 'missing_error' },
    { label: 'a responder step without a function', input: { type: 'responder' }, reason: 'missing_responder' },
    { label: 'a stream responder step without a function', input: { type: 'stream_responder' }, reason: 'missing_responder' },
    { label: 'a stream step whose events are not iterable', input: { type: 'stream', events: 3 }, reason: 'invalid_stream' },
  ])('refuses $label, naming the reason and the input', ({ input, reason, stepType }) => {
    const error = (() => {
      try {
        new ScriptedModel([[assistantMessage('fine')], input as never]);
      } catch (thrown) {
        return thrown;
      }
      throw new Error('expected the constructor to throw');
    })();
    expect(error).toBeInstanceOf(InvalidScriptedModelStepError);
    expect(error).toMatchObject({ reason, inputIndex: 1, ...(stepType ? { stepType } : {}) });
    expect((error as Error).message).toContain('input #2');
  });

  it('enqueue adds nothing when one of its inputs is malformed', () => {
    const model = new ScriptedModel();
    expect(() => model.enqueue([assistantMessage('ok')], { type: 'stream', events: null } as never)).toThrow(
      expect.objectContaining({ reason: 'invalid_stream', inputIndex: 1 }),
    );
    expect(model.remainingSteps).toBe(0);
  });
});

describe('steps that do not fit their call', () => {
  it('refuses a raw stream step on a non-streamed call', async () => {
    const model = new ScriptedModel([modelStream([]), modelStreamResponder(() => [])]);
    for (const stepType of ['stream', 'stream_responder']) {
      expect(await caught(() => model.getResponse(request()))).toMatchObject({ name: 'InvalidScriptedModelStepError', reason: 'incompatible_call', stepType });
    }
  });

  it.each([
    ['returns', () => 7],
    ['resolves to', async () => ({ not: 'events' })],
  ])('refuses a stream responder that %s something that is not events', async (_how, respond) => {
    const model = new ScriptedModel([modelStreamResponder(respond as never)]);
    expect(await caught(() => collect(model.getStreamedResponse(request())))).toMatchObject({
      name: 'InvalidScriptedModelStepError',
      reason: 'invalid_stream',
      callIndex: 0,
      stepType: 'stream_responder',
    });
  });

  it('modelStream of a function is a stream responder of the call', async () => {
    const model = new ScriptedModel([modelStream((call) => [{ type: 'output_text_delta', delta: `#${call.index}` }])]);
    expect(await collect(model.getStreamedResponse(request()))).toEqual([{ type: 'output_text_delta', delta: '#0' }]);
  });
});

describe('abort checks around deferred stream work', () => {
  it('a stream made before the signal fired fails on its first read, without running its step', async () => {
    const controller = new AbortController();
    const respond = vi.fn(() => []);
    const error = new Error('scripted');
    const model = new ScriptedModel([modelError(error), modelStreamResponder(respond)]);
    const failing = model.getStreamedResponse(request({ signal: controller.signal }));
    const responding = model.getStreamedResponse(request({ signal: controller.signal }));
    controller.abort();
    expect(await caught(() => collect(failing))).toBeInstanceOf(ScriptedModelRequestAbortedError);
    expect(await caught(() => collect(responding))).toMatchObject({ name: 'AbortError', callIndex: 1 });
    expect(respond).not.toHaveBeenCalled();
  });

  it('a signal that fires while a stream responder runs fails the stream', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([
      modelStreamResponder(async () => {
        controller.abort();
        return [];
      }),
    ]);
    expect(await caught(() => collect(model.getStreamedResponse(request({ signal: controller.signal }))))).toBeInstanceOf(ScriptedModelRequestAbortedError);
  });

  it('a signal that fires while the response is prepared fails the call', async () => {
    const controller = new AbortController();
    const response = { output: [assistantMessage('x')], usage: new Usage() };
    Object.defineProperty(response, 'rawUsage', { enumerable: true, get: () => (controller.abort(), { n: 1 }) });
    const model = new ScriptedModel([modelResponse(response)]);
    const error = await caught(() => model.getResponse(request({ signal: controller.signal, modelSettings: { preserveRawUsage: true } as never })));
    expect(error).toMatchObject({ name: 'AbortError', callIndex: 0 });
  });
});

describe('retry advice', () => {
  it('is copied when queued', async () => {
    const error = new Error('flaky');
    const advice = { suggested: true, normalized: { isNetworkError: true } };
    const model = new ScriptedModel([modelError(error, advice)]);
    advice.suggested = false;
    advice.normalized.isNetworkError = false;
    const req = request();
    await caught(() => model.getResponse(req));
    expect(await model.getRetryAdvice({ request: req, error, stream: false, attempt: 1 })).toEqual({ suggested: true, normalized: { isNetworkError: true } });
  });

  it('answers for the throw it is about when one error is scripted for several calls', async () => {
    const error = new Error('shared');
    const model = new ScriptedModel([modelError(error, { suggested: false }), modelError(error, { suggested: true }), modelError(error)]);
    const plain = request({ input: 'plain' });
    const streamed = request({ input: 'streamed' });
    const silent = request({ input: 'silent' });
    await caught(() => model.getResponse(plain));
    await caught(() => collect(model.getStreamedResponse(streamed)));
    await caught(() => model.getResponse(silent));
    expect(await model.getRetryAdvice({ request: silent, error, stream: false, attempt: 1 })).toBeUndefined();
    expect(await model.getRetryAdvice({ request: streamed, error, stream: true, attempt: 1 })).toEqual({ suggested: true });
    expect(await model.getRetryAdvice({ request: plain, error, stream: false, attempt: 1 })).toEqual({ suggested: false });
  });

  it('matches the very request object before a request built from the same parts', async () => {
    const error = new Error('shared');
    const base = request();
    const first = { ...base };
    const second = { ...base };
    const model = new ScriptedModel([modelError(error, { suggested: false }), modelError(error, { suggested: true })]);
    await Promise.allSettled([model.getResponse(first), model.getResponse(second)]);
    expect(await model.getRetryAdvice({ request: second, error, stream: false, attempt: 1 })).toEqual({ suggested: true });
    expect(await model.getRetryAdvice({ request: { ...base }, error, stream: false, attempt: 1 })).toEqual({ suggested: false });
  });
});
