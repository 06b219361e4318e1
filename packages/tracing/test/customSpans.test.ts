// Effect spans of your own inside a run. The core README: every effect of the loop runs through the
// step runner (`new Runner({ stepRunner })`), and the loop's spans are Effect spans that this package
// turns into the reference's; an Effect span that is not one of Baton's (a step runner's, say)
// becomes a `custom` span named after it, under the span it was made in, its data the attributes
// set on it — Baton's own `baton.*` attributes left out — and, when it fails, the tracing README's
// rule for errors: with sensitive data the failure's message, without it a generic message and none
// of the failure's text. A step that dies (a defect, not a typed failure) fails its span too. And the
// loop's Effect span a step runs in has the ids of the span it stands for (its `spanId` the model
// span's, its `traceId` the trace's), so Effect code can tell where it is in the trace.
import * as Effect from 'effect/Effect';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Runner, shellTool, type StepRunner } from '@baton/core';
import type { ShellCallItem } from '@baton/types';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
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

/** A step runner that wraps each step in an Effect span of its own, annotated inside. */
function journaling(failOn?: string): StepRunner {
  return {
    runStep: (step, effect) =>
      Effect.gen(function* () {
        yield* Effect.annotateCurrentSpan('outcome', 'pending');
        yield* Effect.annotateCurrentSpan('baton.journal.internal', 'kept out');
        if (step.key === failOn) return yield* Effect.fail(new Error(`journal write refused (key ${SECRET})`));
        const result = yield* effect;
        yield* Effect.annotateCurrentSpan('outcome', 'recorded');
        return result;
      }).pipe(Effect.withSpan('journal.step', { attributes: { key: step.key, kind: step.kind } })) as never,
  };
}

describe('an Effect span of your own inside a run', () => {
  it('is a custom span named after it, with its attributes (not Baton’s) as data, under the span it was made in', async () => {
    const model = new ScriptedModel([[assistantMessage('hello')]]);
    const result = await new Runner({ stepRunner: journaling() }).run(new Agent({ name: 'Greeter', model }), 'hi');
    expect(result.finalOutput).toBe('hello');
    await settle();
    const spans = recorder.ended.map((span) => ({ id: span.id, parent: span.parent, json: span.json }));
    const modelStep = spans.find((span) => span.json.span_data.type === 'custom' && span.json.span_data.data.key === 't1:model')!;
    expect(modelStep.json.span_data).toEqual({ type: 'custom', name: 'journal.step', data: { key: 't1:model', kind: 'model', outcome: 'recorded' } });
    expect(modelStep.json.error).toBeNull();
    // The model call's step runs inside the model's span.
    const generation = spans.find((span) => span.json.span_data.type === 'generation')!;
    expect(modelStep.parent).toBe(generation.id);
  });

  it('that fails, without sensitive data: the generic "Error in span", none of the failure’s text', async () => {
    const model = new ScriptedModel([[assistantMessage('hello')]]);
    const caught = await new Runner({ stepRunner: journaling('t1:model'), traceIncludeSensitiveData: false })
      .run(new Agent({ name: 'Greeter', model }), 'hi')
      .then(() => undefined, (error: unknown) => error);
    expect(String(caught)).toContain(SECRET); // the caller still gets the whole error
    await settle();
    const step = recorder.ended.find((span) => span.json.span_data.type === 'custom' && span.json.span_data.data.key === 't1:model')!.json;
    expect(step.error).toEqual({ message: 'Error in span', data: { error: 'Error' } });
    expect(JSON.stringify(recorder.ended.map((span) => span.json))).not.toContain(SECRET);
  });

  it('that fails, with sensitive data: the failure’s message, as the reference records a span whose function threw', async () => {
    const model = new ScriptedModel([[assistantMessage('hello')]]);
    await new Runner({ stepRunner: journaling('t1:model'), traceIncludeSensitiveData: true })
      .run(new Agent({ name: 'Greeter', model }), 'hi')
      .then(() => undefined, () => undefined);
    await settle();
    const step = recorder.ended.find((span) => span.json.span_data.type === 'custom' && span.json.span_data.data.key === 't1:model')!.json;
    expect(step.error).toEqual({ message: `journal write refused (key ${SECRET})` });
  });

  it('that dies (a defect): its span has the error too', async () => {
    const dying: StepRunner = {
      runStep: (step, effect) =>
        (step.key === 't1:model' ? Effect.die(new Error('journal corrupted')) : effect).pipe(Effect.withSpan('journal.step', { attributes: { key: step.key } })) as never,
    };
    const caught = await new Runner({ stepRunner: dying, traceIncludeSensitiveData: true })
      .run(new Agent({ name: 'Greeter', model: new ScriptedModel([[assistantMessage('hello')]]) }), 'hi')
      .then(() => undefined, (error: unknown) => error);
    expect(caught).toBeDefined();
    await settle();
    const step = recorder.ended.find((span) => span.json.span_data.type === 'custom' && span.json.span_data.data.key === 't1:model')!.json;
    expect(step.error).toEqual({ message: 'journal corrupted' });
  });

  it('the loop’s Effect span a step runs in carries the ids of the span it stands for', async () => {
    const seen: Array<{ key: string; spanId: string; traceId: string }> = [];
    const peeking: StepRunner = {
      runStep: (step, effect) =>
        Effect.flatMap(Effect.currentParentSpan, (parent) => {
          seen.push({ key: step.key, spanId: parent.spanId, traceId: parent.traceId });
          return effect;
        }).pipe(Effect.orDie) as never,
    };
    await new Runner({ stepRunner: peeking }).run(new Agent({ name: 'Greeter', model: new ScriptedModel([[assistantMessage('hello')]]) }), 'hi');
    await settle();
    const generation = recorder.ended.find((span) => span.json.span_data.type === 'generation')!;
    expect(seen.find((entry) => entry.key === 't1:model')).toEqual({ key: 't1:model', spanId: generation.id, traceId: generation.trace });
  });

  it('a step whose tool failed and was answered to the model succeeded: its span has no error', async () => {
    // A local tool's failure is noted inside its step, so on the step's span as the current one;
    // only a tool's own span turns that note into an error.
    const shell = shellTool({ shell: { run: async () => Promise.reject(new Error(`sandbox refused (key ${SECRET})`)) }, needsApproval: false });
    const call: ShellCallItem = { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['ls'] } };
    const model = new ScriptedModel([[call], [assistantMessage('could not list')]]);
    const result = await new Runner({ stepRunner: journaling() }).run(new Agent({ name: 'Operator', model, tools: [shell] }), 'list files');
    expect(result.finalOutput).toBe('could not list');
    await settle();
    const toolStep = recorder.ended.find((span) => span.json.span_data.type === 'custom' && span.json.span_data.data.key === 'tool:s1')!.json;
    expect(toolStep.span_data).toEqual({ type: 'custom', name: 'journal.step', data: { key: 'tool:s1', kind: 'tool', outcome: 'recorded' } });
    expect(toolStep.error).toBeNull();
  });
});
