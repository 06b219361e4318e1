// A function span's data without sensitive data. The tracing README's table: a function span carries
// the tool's name, and its arguments and result only with `traceIncludeSensitiveData`; the
// reference's function spans start with `input: ''` and `output: ''` (agents-core
// `tracing/createSpans.js`, `createFunctionSpan`) and keep them empty when nothing sensitive may be
// written. With sensitive data on, the same span carries both.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
import { recordingProcessor } from './recording.js';

let recorder = recordingProcessor();
beforeEach(() => {
  recorder = recordingProcessor();
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor]);
});
afterEach(() => setTraceProcessors([]));

async function functionSpanOf(traceIncludeSensitiveData: boolean) {
  const lookup = tool({ name: 'lookup', description: 'Looks an order up.', parameters: z.object({ id: z.string() }), execute: ({ id }) => `order ${id}: shipped` });
  const model = new ScriptedModel([[functionCall('lookup', { id: 'A1' }, { callId: 'c1' })], [assistantMessage('It shipped.')]]);
  const result = await new Runner({ traceIncludeSensitiveData }).run(new Agent({ name: 'Clerk', model, tools: [lookup] }), 'where is A1?');
  expect(result.finalOutput).toBe('It shipped.');
  await new Promise((resolve) => setTimeout(resolve, 20));
  return recorder.ended.find((span) => span.json.span_data.type === 'function')!.json;
}

describe('a function span', () => {
  it('without sensitive data: the tool’s name, empty input and output, no error', async () => {
    const span = await functionSpanOf(false);
    expect(span.span_data).toEqual({ type: 'function', name: 'lookup', input: '', output: '' });
    expect(span.error).toBeNull();
  });

  it('with sensitive data: the arguments and the result', async () => {
    const span = await functionSpanOf(true);
    expect(span.span_data).toEqual({ type: 'function', name: 'lookup', input: '{"id":"A1"}', output: 'order A1: shipped' });
    expect(span.error).toBeNull();
  });
});
