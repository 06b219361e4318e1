// A run started inside the caller's own trace and span (the README: runs join the current trace,
// "their spans under the current span"), with a model that reports usage: the run's task span hangs
// from the caller's span and still adds up its usage (the README's table: task and turn spans carry
// token usage) — the caller's span is not one of the run's, so the tally stops there instead of
// failing. And a guardrail that throws: its span records the failure, with the text only with
// sensitive data ("without sensitive data no failure's text reaches a span"). And a failed run's run-level
// spans, which the reference marks "Error in agent run" with String(error) when sensitive data is on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Runner, type Model } from '@baton/core';
import { Usage } from '@baton/types';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled, withCustomSpan, withTrace } from '../src/index.js';
import { recordingProcessor } from './recording.js';

const SECRET = 'sk-live-0123456789abcdef';

let recorder = recordingProcessor();
beforeEach(() => {
  recorder = recordingProcessor();
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor]);
});
afterEach(() => setTraceProcessors([]));

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a run inside the caller’s own span', () => {
  it('hangs its task span from that span and adds up its usage there', async () => {
    const model = new ScriptedModel([{ output: [assistantMessage('hello')], usage: new Usage({ requests: 1, inputTokens: 7, outputTokens: 2, totalTokens: 9 }) }] as never);
    const result = await withTrace('Checkout', () =>
      withCustomSpan(() => new Runner().run(new Agent({ name: 'Greeter', model }), 'hi'), { data: { name: 'request', data: {} } }),
    );
    expect(result.finalOutput).toBe('hello');
    await settle();
    const ended = recorder.ended.map((span) => ({ id: span.id, parent: span.parent, data: span.json.span_data }));
    const request = ended.find((span) => span.data.type === 'custom' && span.data.name === 'request')!;
    // Task and turn spans go out as the reference's custom spans, `sdk_span_type` naming the kind.
    const of = (kind: string) => ended.find((span) => span.data.type === 'custom' && span.data.data.sdk_span_type === kind)!;
    expect(of('task').parent).toBe(request.id);
    expect(of('task').data.data.usage).toMatchObject({ requests: 1, input_tokens: 7, output_tokens: 2, total_tokens: 9 });
    expect(of('turn').data.data.usage).toMatchObject({ input_tokens: 7, output_tokens: 2 });
  });
});

describe('usage added up on task and turn spans, as the reference sums it (runner/tracing.js)', () => {
  it('counts the requests a response reports, and cached tokens under either name, and cache writes', async () => {
    // The reference: requests += usage.requests; cached_input_tokens = Σ cached_tokens + Σ cached_input_tokens
    // over inputTokensDetails; cache_write_input_tokens = Σ cache_write_tokens.
    const usage = new Usage({
      requests: 2,
      inputTokens: 10,
      outputTokens: 4,
      totalTokens: 14,
      inputTokensDetails: [{ cached_tokens: 3 }, { cached_input_tokens: 2, cache_write_tokens: 4 }],
    } as never);
    const model = new ScriptedModel([{ output: [assistantMessage('hello')], usage }] as never);
    await new Runner().run(new Agent({ name: 'Counter', model }), 'hi');
    await settle();
    const of = (kind: string) => recorder.ended.find((span) => span.json.span_data.type === 'custom' && span.json.span_data.data.sdk_span_type === kind)!.json.span_data.data;
    expect(of('task').usage).toEqual({ requests: 2, input_tokens: 10, output_tokens: 4, total_tokens: 14, cached_input_tokens: 5, cache_write_input_tokens: 4 });
    expect(of('turn').usage).toEqual({ input_tokens: 10, output_tokens: 4, cached_input_tokens: 5, cache_write_input_tokens: 4 });
  });
});

describe('a run that fails, with sensitive data', () => {
  it('its task, turn and agent spans say "Error in agent run" with the error the caller got (the reference: String(error))', async () => {
    const failing: Model = {
      getResponse: async () => {
        throw new Error('upstream said no');
      },
      getStreamedResponse: () => {
        throw new Error('not streamed');
      },
    };
    const caught = await new Runner({ traceIncludeSensitiveData: true })
      .run(new Agent({ name: 'Broken', model: failing }), 'hi')
      .then(() => undefined, (error: unknown) => error);
    expect(caught).toBeInstanceOf(Error);
    await settle();
    const runLevel = recorder.ended.filter((span) => {
      const data = span.json.span_data;
      return data.type === 'agent' || (data.type === 'custom' && ['task', 'turn'].includes(data.data.sdk_span_type));
    });
    expect(runLevel).toHaveLength(3);
    for (const span of runLevel) expect(span.json.error).toEqual({ message: 'Error in agent run', data: { error: String(caught) } });
  });
});

describe('a model that does not say how it is traced', () => {
  // `Model.traceSpanType` (types/src/model.ts): "A model that does not say records none, as in the reference".
  it('gets no model span of its own', async () => {
    const inner = new ScriptedModel([[assistantMessage('hello')]]);
    const quiet: Model = { getResponse: (request) => inner.getResponse(request), getStreamedResponse: (request) => inner.getStreamedResponse(request) };
    await new Runner().run(new Agent({ name: 'Plain', model: quiet }), 'hi');
    await settle();
    const types = recorder.ended.map((span) => span.json.span_data.type);
    expect(types).toContain('agent');
    expect(types).not.toContain('generation');
    expect(types).not.toContain('response');
  });
});

describe('a guardrail that throws', () => {
  const throwing = { name: 'vault_check', execute: async () => Promise.reject(new Error(`vault said no (key ${SECRET})`)) };
  const failedRun = (traceIncludeSensitiveData: boolean) =>
    new Runner({ traceIncludeSensitiveData })
      .run(new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('ok')]]), inputGuardrails: [throwing] }), 'hi')
      .then(() => 'ok', (error: unknown) => String(error));

  it('without sensitive data: its span has an error, and none of the error’s text', async () => {
    expect(await failedRun(false)).toContain(SECRET); // the caller still gets the whole error
    await settle();
    const guardrail = recorder.ended.find((span) => span.json.span_data.type === 'guardrail')!.json;
    expect(guardrail.span_data).toMatchObject({ name: 'vault_check', triggered: false }); // it failed, it did not trip
    expect(guardrail.error).toMatchObject({ message: expect.stringMatching(/./) });
    expect(JSON.stringify(recorder.ended.map((span) => span.json))).not.toContain(SECRET);
  });

  it('with sensitive data: its span has the error’s text', async () => {
    await failedRun(true);
    await settle();
    const guardrail = recorder.ended.find((span) => span.json.span_data.type === 'guardrail')!.json;
    expect(JSON.stringify(guardrail.error)).toContain(SECRET);
  });
});
