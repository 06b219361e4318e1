// What task and turn spans count from model calls that did not simply succeed. The reference
// (agents-core `run.js`, recordModelFailureUsage; `runner/tracing.js`, recordRunnerSpanUsage) adds
// the usage a provider reported for a call that failed for good to the task and the turn span, as
// it does for a response: the run fails, yet its spans say what it was billed. A response that
// carries no usage at all (a step runner's journal that never recorded one) adds nothing, the
// spans leave the field off as when every count is 0 (the reference's hasUsage), and the model's
// own span (generation or response) records none.
import * as Effect from 'effect/Effect';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Runner, type StepRunner } from '@baton/core';
import { Usage } from '@baton/types';
import { ScriptedModel, assistantMessage, modelError } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
import { recordingProcessor } from './recording.js';

let recorder = recordingProcessor();
beforeEach(() => {
  recorder = recordingProcessor();
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor]);
});
afterEach(() => setTraceProcessors([]));

async function taskAndTurn() {
  await new Promise((resolve) => setTimeout(resolve, 20));
  const of = (kind: string) => recorder.ended.find((span) => span.json.span_data.type === 'custom' && span.json.span_data.data.sdk_span_type === kind)!.json;
  return { task: of('task'), turn: of('turn') };
}

describe('a model call that failed for good, billed', () => {
  for (const stream of [false, true]) {
    it(`its reported usage on the task and turn spans, which fail (${stream ? 'streamed' : 'not streamed'})`, async () => {
      const billed = Object.assign(new Error('response incomplete'), { usage: new Usage({ requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 }) });
      const model = new ScriptedModel([modelError(billed)]);
      const run = async () => {
        const result = await new Runner().run(new Agent({ name: 'Meter', model }), 'go', { stream } as never);
        if (stream) await (result as { completed: Promise<void> }).completed;
      };
      await expect(run()).rejects.toThrow('response incomplete');
      const { task, turn } = await taskAndTurn();
      expect(task.span_data.data.usage).toEqual({ requests: 1, input_tokens: 3, output_tokens: 4, total_tokens: 7, cached_input_tokens: 0, cache_write_input_tokens: 0 });
      expect(turn.span_data.data.usage).toEqual({ input_tokens: 3, output_tokens: 4, cached_input_tokens: 0, cache_write_input_tokens: 0 });
      expect(task.error).not.toBeNull();
    });
  }

  it('not billed (no usage on the error): no usage on either span', async () => {
    const model = new ScriptedModel([modelError(new Error('connection reset'))]);
    await expect(new Runner().run(new Agent({ name: 'Meter', model }), 'go')).rejects.toThrow('connection reset');
    const { task, turn } = await taskAndTurn();
    expect(task.span_data.data.usage).toBeUndefined();
    expect(turn.span_data.data.usage).toBeUndefined();
  });
});

describe('a model response without usage', () => {
  // The journal answers the model step itself: the model is never called.
  const models = {
    generation: () => new ScriptedModel([[assistantMessage('live')]]),
    response: () => ({
      traceSpanType: 'response' as const,
      getResponse: () => Promise.reject(new Error('not called')),
      getStreamedResponse: () => {
        throw new Error('not called');
      },
    }),
  };
  for (const [spanType, makeModel] of Object.entries(models)) {
    it(`(a journal that replays one it recorded without it, model span ${spanType}): the run finishes, and neither span has usage`, async () => {
      const replaying: StepRunner = {
        runStep: (step, effect) => (step.kind === 'model' ? Effect.succeed({ output: [assistantMessage('from the journal')], responseId: 'r1' }) : effect) as never,
      };
      const result = await new Runner({ stepRunner: replaying }).run(new Agent({ name: 'Meter', model: makeModel() as never }), 'go');
      expect(result.finalOutput).toBe('from the journal');
      const { task, turn } = await taskAndTurn();
      expect(task.span_data.data.usage).toBeUndefined();
      expect(turn.span_data.data.usage).toBeUndefined();
      expect(task.error).toBeNull();
      expect(recorder.ended.some((span) => span.json.span_data.type === spanType)).toBe(true);
    });
  }
});
