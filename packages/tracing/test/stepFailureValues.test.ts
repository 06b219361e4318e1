// Whatever value a step runner fails or dies with, the span it failed still ends and reaches the
// processors, with the error the rules give for that value. A step runner is anyone's Effect code
// (the core README), so a failure is not always an Error: `Effect.fail(null)` or a defect that is
// a string are values like any other. Guardrail spans with sensitive data follow the reference's
// rule for a span whose function threw a value (agents-core `tracing/createSpans.js`,
// setSpanError): the value's `message` when it is an object with a string one, else `String(value)`;
// and the object's `data` whatever it is. A run error that wraps the value (GuardrailExecutionError
// with its `error`) is unwrapped; nothing else is.
import * as Effect from 'effect/Effect';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Runner, type StepRunner } from '@baton/core';
import { GuardrailExecutionError } from '@baton/types';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
import { recordingProcessor } from './recording.js';

let recorder = recordingProcessor();
beforeEach(() => {
  recorder = recordingProcessor();
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor]);
});
afterEach(() => setTraceProcessors([]));

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A step runner that wraps each step in a `journal.step` span and fails the model step with `value`. */
function failingModelStep(value: unknown): StepRunner {
  return {
    runStep: (step, effect) => (step.kind === 'model' ? Effect.fail(value) : effect).pipe(Effect.withSpan('journal.step', { attributes: { key: step.key } })) as never,
  };
}

describe('a step runner that fails a step with a value that is not an Error (undefined included: a failure all the same)', () => {
  for (const [title, value, text] of [
    ['undefined', undefined, 'undefined'],
    ['null', null, 'null'],
    ['a string', 'journal full', 'journal full'],
    ['a number', 507, '507'],
  ] as const) {
    it(`${title}: the step's span ends, with the value's text only with sensitive data`, async () => {
      for (const traceIncludeSensitiveData of [true, false]) {
        recorder = recordingProcessor();
        setTraceProcessors([recorder.processor]);
        const model = new ScriptedModel([[assistantMessage('hello')]]);
        const outcome = await new Runner({ stepRunner: failingModelStep(value), traceIncludeSensitiveData })
          .run(new Agent({ name: 'Greeter', model }), 'hi')
          .then(() => 'finished', () => 'failed');
        expect(outcome).toBe('failed');
        await settle();
        const step = recorder.ended.find((span) => span.json.span_data.type === 'custom' && span.json.span_data.name === 'journal.step' && span.json.span_data.data.key === 't1:model');
        expect(step?.json.error).toEqual(
          traceIncludeSensitiveData ? { message: text } : { message: 'Error in span', data: { error: 'Error' } },
        );
        // The run failed with the value too: its agent span says so (the reference's String(error)).
        const agent = recorder.ended.find((span) => span.json.span_data.type === 'agent');
        expect(agent?.json.error).toEqual({ message: 'Error in agent run', data: { error: traceIncludeSensitiveData ? text : 'Error' } });
      }
    });
  }
});

/** The guardrail span of a run whose step runner dies with `value` while running the input guardrail. */
async function guardrailSpanWhenDying(value: unknown) {
  const dying: StepRunner = { runStep: (step, effect) => (step.kind === 'guardrail' ? Effect.die(value) : effect) as never };
  const guardrail = { name: 'vault_check', execute: async () => ({ tripwireTriggered: false, outputInfo: null }) };
  const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('ok')]]), inputGuardrails: [guardrail] });
  const outcome = await new Runner({ stepRunner: dying, traceIncludeSensitiveData: true }).run(agent, 'hi').then(() => 'finished', () => 'failed');
  expect(outcome).toBe('failed');
  await settle();
  return recorder.ended.find((span) => span.json.span_data.type === 'guardrail')?.json;
}

describe('a guardrail whose step dies, with sensitive data: the reference’s rule for what failed it', () => {
  const fn = Object.assign(() => 'not an error', { message: 'a property of a function' });
  const cases: Array<[string, unknown, Record<string, unknown>]> = [
    ['an Error: its message', new Error('journal corrupted'), { message: 'journal corrupted' }],
    ['an Error with a data object: its message and data', Object.assign(new Error('journal corrupted'), { data: { page: 7 } }), { message: 'journal corrupted', data: { page: 7 } }],
    ['an Error with data that is a string: its data as it is', Object.assign(new Error('journal corrupted'), { data: 'page 7' }), { message: 'journal corrupted', data: 'page 7' }],
    ['an Error with data 0: its data as it is', Object.assign(new Error('journal corrupted'), { data: 0 }), { message: 'journal corrupted', data: 0 }],
    ['an Error that holds another in `error` (not a run error): its own message', Object.assign(new Error('journal corrupted'), { error: new Error('disk') }), { message: 'journal corrupted' }],
    ['a GuardrailExecutionError without an inner error: its own message', new GuardrailExecutionError('journal says it failed', undefined as never), { message: 'journal says it failed' }],
    ['a string: the string', 'journal corrupted', { message: 'journal corrupted' }],
    ['null: "null"', null, { message: 'null' }],
    ['an object without a message: String(value)', { code: 7 }, { message: '[object Object]' }],
    ['a function with a message property: String(value) (only objects are read)', fn, { message: String(fn) }],
  ];
  for (const [title, value, expected] of cases) {
    it(title, async () => {
      const span = await guardrailSpanWhenDying(value);
      expect(span?.span_data).toEqual({ type: 'guardrail', name: 'vault_check', triggered: false });
      expect(span?.error).toEqual(expected);
    });
  }
});
