import type { ModelStreamEvent } from '@baton/types';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, ScriptedModelRequestAbortedError, assistantMessage, modelResponder, modelStream } from '../src/index.js';
import { caught, collect, request } from './helpers.js';

function expectAbortError(error: Error, callIndex: number | undefined): void {
  expect(error.name).toBe('AbortError');
  expect(error).toBeInstanceOf(ScriptedModelRequestAbortedError);
  expect(error).toMatchObject({ callIndex });
}

describe('ScriptedModel and request.signal', () => {
  it('refuses a non-streamed call whose signal is already aborted: not recorded, and the step stays', async () => {
    const model = new ScriptedModel([[assistantMessage('a')]]);
    const error = await caught(() => model.getResponse(request({ signal: AbortSignal.abort() })));
    expectAbortError(error, undefined);
    expect(model.calls).toHaveLength(0);
    expect(model.remainingSteps).toBe(1);
  });

  it('throws AbortError on a streamed call whose signal is already aborted, before any event', async () => {
    const model = new ScriptedModel([[assistantMessage('a')]]);
    const seen: ModelStreamEvent[] = [];
    const error = await caught(async () => {
      for await (const event of model.getStreamedResponse(request({ signal: AbortSignal.abort() }))) seen.push(event);
    });
    expectAbortError(error, undefined);
    expect(seen).toEqual([]);
    expect(model.calls).toHaveLength(0);
    expect(model.remainingSteps).toBe(1);
  });

  it('does not abort when the signal has not fired', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([[assistantMessage('a')]]);
    expect((await collect(model.getStreamedResponse(request({ signal: controller.signal })))).at(-1)?.type).toBe('response_done');
  });

  it('throws AbortError when the signal fires while a responder runs', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([
      modelResponder(() => {
        controller.abort();
        return [assistantMessage('too late')];
      }),
    ]);
    expectAbortError(await caught(() => model.getResponse(request({ signal: controller.signal }))), 0);
  });

  it('throws AbortError mid-stream on an auto-streamed response', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([
      [assistantMessage('unused')],
      [{ ...assistantMessage('x'), content: ['one', 'two', 'three'].map((text) => ({ type: 'output_text' as const, text })) }],
    ]);
    await model.getResponse(request());
    const seen: string[] = [];
    const error = await caught(async () => {
      for await (const event of model.getStreamedResponse(request({ signal: controller.signal }))) {
        seen.push(event.type === 'output_text_delta' ? event.delta : event.type);
        if (seen.length === 2) controller.abort();
      }
    });
    expectAbortError(error, 1);
    expect(seen).toEqual(['response_started', 'one']);
  });

  it('throws AbortError mid-stream on a raw stream script', async () => {
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [
      { type: 'response_started' },
      { type: 'output_text_delta', delta: 'a' },
      { type: 'output_text_delta', delta: 'b' },
      { type: 'response_done', response: { id: 'r', usage: {}, output: [] } },
    ];
    const model = new ScriptedModel([modelStream(events)]);
    const seen: ModelStreamEvent[] = [];
    const error = await caught(async () => {
      for await (const event of model.getStreamedResponse(request({ signal: controller.signal }))) {
        seen.push(event);
        if (event.type === 'output_text_delta') controller.abort();
      }
    });
    expectAbortError(error, 0);
    expect(seen).toEqual(events.slice(0, 2));
  });
});
