import { runInNewContext } from 'node:vm';
import { Usage, type ModelResponse, type ModelStreamEvent } from '@baton/types';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage, modelResponder, modelResponse, modelStream } from '../src/index.js';
import { collect, request } from './helpers.js';

const doneOf = (events: ModelStreamEvent[]) => {
  const done = events.at(-1);
  if (done?.type !== 'response_done') throw new Error('no response_done');
  return done.response as typeof done.response & { rawUsage?: unknown };
};

describe('recorded requests are copies taken at call time', () => {
  it('keeps input, settings, tools and handoffs as they were; runtime objects keep their identity', async () => {
    class Session {}
    const session = new Session();
    const policy = () => true;
    const controller = new AbortController();
    const loop: { n: number; self?: unknown } = { n: 1 };
    loop.self = loop;
    const bytes = new Uint8Array([5, 6]);
    const settings = { temperature: 0.2, providerData: { loop, session, bytes, sameBuffer: bytes.buffer }, retry: { maxRetries: 2, policy } };
    const tool = { type: 'function' as const, name: 't', description: 'd', parameters: { type: 'object', properties: {} }, strict: true };
    const req = request({ input: [{ role: 'user', content: 'hi' }], modelSettings: settings as never, tools: [tool as never], signal: controller.signal });
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await model.getResponse(req);

    settings.temperature = 1;
    loop.n = 2;
    bytes[0] = 0;
    req.tools = [];
    (req.input as unknown[]).length = 0;

    const seen = model.firstCall!.request;
    const data = seen.modelSettings.providerData as typeof settings.providerData;
    expect(seen.input).toEqual([{ role: 'user', content: 'hi' }]);
    expect(seen.modelSettings.temperature).toBe(0.2);
    expect(seen.tools).toEqual([tool]);
    expect(seen.tools[0]).not.toBe(tool);
    expect(data.loop.n).toBe(1);
    expect(data.loop.self).toBe(data.loop);
    expect(data.session).toBe(session);
    expect(Array.from(data.bytes)).toEqual([5, 6]);
    expect(data.bytes.buffer).toBe(data.sameBuffer);
    expect((seen.modelSettings.retry as { policy: unknown }).policy).toBe(policy);
    expect(seen.signal).toBe(controller.signal);
  });

  it('copies plain objects and views made in another realm, and keeps an own "__proto__" key', async () => {
    const foreign = runInNewContext(`({ inner: { n: 1 }, view: new DataView(new ArrayBuffer(4), 1, 2), own: JSON.parse('{"__proto__": {"x": 1}}') })`) as {
      inner: { n: number };
      view: DataView;
      own: Record<string, unknown>;
    };
    foreign.view.setUint8(0, 3);
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await model.getResponse(request({ modelSettings: { providerData: foreign } }));
    foreign.inner.n = 2;
    foreign.view.setUint8(0, 4);

    const copy = model.firstCall!.request.modelSettings.providerData as typeof foreign;
    expect(copy.inner).not.toBe(foreign.inner);
    expect(copy.inner.n).toBe(1);
    expect([copy.view.byteOffset, copy.view.byteLength, copy.view.getUint8(0)]).toEqual([1, 2, 3]);
    expect(Object.prototype.hasOwnProperty.call(copy.own, '__proto__')).toBe(true);
  });

  it('hands out fresh copies: a responder or a reader that changes one changes nothing recorded', async () => {
    const model = new ScriptedModel([
      modelResponder((call) => {
        (call.request.modelSettings.providerData as { n: number }).n = 9;
        return [];
      }),
    ]);
    await model.getResponse(request({ modelSettings: { providerData: { n: 1 } } }));
    (model.calls[0]!.request.modelSettings.providerData as { n: number }).n = 8;
    (model.lastCall!.request.modelSettings.providerData as { n: number }).n = 7;
    expect(model.firstCall!.request.modelSettings.providerData).toEqual({ n: 1 });
    expect(Object.isFrozen(model.calls)).toBe(true);
    expect(() => (model.calls as unknown[]).pop()).toThrow(TypeError);
  });

  it('records streamed calls and takes their steps when they are made, not when they are read', async () => {
    const model = new ScriptedModel([[assistantMessage('first')], [assistantMessage('second')]]);
    const a = model.getStreamedResponse(request({ input: 'a' }));
    const b = model.getStreamedResponse(request({ input: 'b' }));
    expect(model.calls.map((call) => call.request.input)).toEqual(['a', 'b']);
    expect(model.remainingSteps).toBe(0);
    const textOf = (events: ModelStreamEvent[]) => events.flatMap((e) => (e.type === 'output_text_delta' ? [e.delta] : [])).join('');
    expect(textOf(await collect(b))).toBe('second');
    expect(textOf(await collect(a))).toBe('first');
  });
});

describe('scripted responses are copies taken when queued', () => {
  it('a full response: later changes to its output, usage or provider data do not reach the call', async () => {
    const response = { output: [assistantMessage('kept')], usage: new Usage({ inputTokensDetails: [{ cachedTokens: 1 }] }), providerData: { tag: 'a' } };
    const model = new ScriptedModel([modelResponse(response)]);
    response.output[0] = assistantMessage('changed');
    response.usage.inputTokensDetails[0]!.cachedTokens = 5;
    response.providerData.tag = 'b';
    const result = await model.getResponse(request());
    expect(result.output).toEqual([assistantMessage('kept')]);
    expect(result.usage.inputTokensDetails).toEqual([{ cachedTokens: 1 }]);
    expect(result.providerData).toEqual({ tag: 'a' });
  });

  it('a raw event list: later changes do not reach the stream', async () => {
    const events: ModelStreamEvent[] = [{ type: 'output_text_delta', delta: 'kept' }];
    const model = new ScriptedModel([modelStream(events)]);
    events[0] = { type: 'output_text_delta', delta: 'changed' };
    expect(await collect(model.getStreamedResponse(request()))).toEqual([{ type: 'output_text_delta', delta: 'kept' }]);
  });

  it('auto-streamed events are separate copies: changing a delta does not change response_done', async () => {
    const message = assistantMessage('x');
    message.content[0] = { type: 'output_text', text: 'x', providerData: { deep: { n: 1 } } };
    const model = new ScriptedModel([[message]]);
    const events = await collect(model.getStreamedResponse(request()));
    const delta = events[1];
    if (delta?.type !== 'output_text_delta') throw new Error('no delta');
    (delta.providerData!.deep as { n: number }).n = 2;
    const [item] = doneOf(events).output;
    expect(item?.type === 'message' && item.content[0]).toMatchObject({ providerData: { deep: { n: 1 } } });
  });
});

describe('rawUsage', () => {
  const withRawUsage = (rawUsage: unknown): ModelResponse => ({ output: [assistantMessage('x')], usage: new Usage({ requests: 1 }), rawUsage }) as ModelResponse;

  it.each([false, true])('is kept (as a JSON copy) only when the call sets preserveRawUsage; streamed: %s', async (streamed) => {
    const raw = { provider: { tokens: 3 } };
    const model = new ScriptedModel([withRawUsage(raw), withRawUsage(raw)]);
    const call = async (preserveRawUsage: boolean) => {
      const req = request({ modelSettings: { preserveRawUsage } as never });
      return streamed ? doneOf(await collect(model.getStreamedResponse(req))) : ((await model.getResponse(req)) as ModelResponse & { rawUsage?: unknown });
    };
    const off = await call(false);
    const on = await call(true);
    raw.provider.tokens = 99;
    expect(off.rawUsage).toBeUndefined();
    expect(on.rawUsage).toEqual({ provider: { tokens: 3 } });
  });

  it('reads the setting as it was when the call was made, not when a slow responder answers', async () => {
    let answer!: () => void;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    const model = new ScriptedModel([
      modelResponder(async () => {
        await gate;
        return withRawUsage({ n: 1 });
      }),
    ]);
    const req = request({ modelSettings: { preserveRawUsage: true } as never });
    const pending = model.getResponse(req);
    (req.modelSettings as { preserveRawUsage?: boolean }).preserveRawUsage = false;
    answer();
    expect(((await pending) as { rawUsage?: unknown }).rawUsage).toEqual({ n: 1 });
  });

  it('reads an accessor once, and leaves the usage out (no error) when it throws or is not JSON', async () => {
    let reads = 0;
    const counted = { output: [assistantMessage('x')], usage: new Usage() } as ModelResponse;
    Object.defineProperty(counted, 'rawUsage', { enumerable: true, get: () => (reads++, { n: 1 }) });
    const throwing = { output: [assistantMessage('x')], usage: new Usage() } as ModelResponse;
    Object.defineProperty(throwing, 'rawUsage', {
      enumerable: true,
      get: () => {
        throw new Error('unavailable');
      },
    });
    const model = new ScriptedModel([counted, throwing, withRawUsage({ big: 10n })]);
    const req = () => request({ modelSettings: { preserveRawUsage: true } as never });
    expect(doneOf(await collect(model.getStreamedResponse(req()))).rawUsage).toEqual({ n: 1 });
    expect(reads).toBe(1);
    expect(((await model.getResponse(req())) as { rawUsage?: unknown }).rawUsage).toBeUndefined();
    expect(((await model.getResponse(req())) as { rawUsage?: unknown }).rawUsage).toBeUndefined();
  });
});
