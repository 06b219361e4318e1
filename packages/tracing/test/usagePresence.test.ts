// When task and turn spans carry a usage field. The reference (agents-core `runner/tracing.js`,
// `finishRunnerSpan`) writes the summed usage of the model calls below a task or turn span when ANY
// of its counts is not 0 — requests, input, output and total tokens, cached input tokens and cache
// writes alike — and leaves the field off only when every count is 0. Each case below makes one
// count alone non-zero, so a rule that looks at fewer counts (or joins them the wrong way) fails one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Runner } from '@baton/core';
import { Usage } from '@baton/types';
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

/** The usage fields of the task and turn spans of a one-turn run whose model reports `usage`. */
async function usageOf(usage: Usage) {
  const model = new ScriptedModel([{ output: [assistantMessage('done')], usage }] as never);
  await new Runner().run(new Agent({ name: 'Meter', model }), 'go');
  await new Promise((resolve) => setTimeout(resolve, 20));
  const of = (kind: string) => recorder.ended.find((span) => span.json.span_data.type === 'custom' && span.json.span_data.data.sdk_span_type === kind)!.json.span_data.data;
  return { task: of('task').usage, turn: of('turn').usage };
}

const zero = { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };

describe('task and turn spans carry usage when any one count is not 0 (the reference’s hasUsage)', () => {
  it('only a request (no tokens): both spans carry zero token counts, the task one request', async () => {
    const { task, turn } = await usageOf(new Usage({ ...zero, requests: 1 }));
    expect(task).toEqual({ requests: 1, input_tokens: 0, output_tokens: 0, total_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0 });
    expect(turn).toEqual({ input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0 });
  });

  it('only input tokens', async () => {
    const { task, turn } = await usageOf(new Usage({ ...zero, inputTokens: 5 }));
    expect(task).toEqual({ requests: 0, input_tokens: 5, output_tokens: 0, total_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0 });
    expect(turn).toEqual({ input_tokens: 5, output_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0 });
  });

  it('only output tokens', async () => {
    const { task, turn } = await usageOf(new Usage({ ...zero, outputTokens: 3 }));
    expect(task).toEqual({ requests: 0, input_tokens: 0, output_tokens: 3, total_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0 });
    expect(turn).toEqual({ input_tokens: 0, output_tokens: 3, cached_input_tokens: 0, cache_write_input_tokens: 0 });
  });

  it('only total tokens', async () => {
    const { task, turn } = await usageOf(new Usage({ ...zero, totalTokens: 8 }));
    expect(task).toEqual({ requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 8, cached_input_tokens: 0, cache_write_input_tokens: 0 });
    // A turn span has no total: its usage is there, with every field it has at 0.
    expect(turn).toEqual({ input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0 });
  });

  it('only cached input tokens', async () => {
    const { task, turn } = await usageOf(new Usage({ ...zero, inputTokensDetails: [{ cached_tokens: 2 }] }));
    expect(task).toEqual({ requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cached_input_tokens: 2, cache_write_input_tokens: 0 });
    expect(turn).toEqual({ input_tokens: 0, output_tokens: 0, cached_input_tokens: 2, cache_write_input_tokens: 0 });
  });

  it('only cache writes', async () => {
    const { task, turn } = await usageOf(new Usage({ ...zero, inputTokensDetails: [{ cache_write_tokens: 6 }] }));
    expect(task).toEqual({ requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 6 });
    expect(turn).toEqual({ input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 6 });
  });

  it('every count 0: neither span has a usage field', async () => {
    const { task, turn } = await usageOf(new Usage({ ...zero, inputTokensDetails: [{ cached_tokens: 0, cache_write_tokens: 0 }] }));
    expect(task).toBeUndefined();
    expect(turn).toBeUndefined();
  });
});
