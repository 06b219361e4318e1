import { afterEach, describe, expect, it } from 'vitest';
import { onBoth, sdks, type SdkUnderTest } from './sdks.js';
import { recordEndedSpans } from './endedSpans.js';

/**
 * Spans of runs that fail with values that are not plain Errors, side by side (sensitive data on,
 * the default). A model that rejects with `undefined` fails the run all the same: the reference
 * marks the task, turn and agent spans `Error in agent run` with `String(error)` (agents-core
 * `runner/tracing.js`, setRunnerSpanError). A guardrail that throws an error whose `data` is not
 * an object: the reference records that `data` as it is (`tracing/createSpans.js`, setSpanError).
 */

afterEach(() => {
  for (const { sdk } of sdks) sdk.setTraceProcessors([]);
});

async function endedSpans(under: SdkUnderTest, run: () => Promise<unknown>) {
  const ended = recordEndedSpans(under);
  const outcome = await run().then(
    () => 'finished',
    (error: unknown) => `failed with ${String(error)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { outcome, ended };
}

function textModel(under: SdkUnderTest, getResponse: () => Promise<unknown>) {
  void under;
  return {
    getResponse,
    getStreamedResponse() {
      throw new Error('not streamed');
    },
  };
}

describe('a model that rejects with undefined', () => {
  it('fails the run, and the task, turn and agent spans say so, on both', async () => {
    const both = await onBoth(async (under) => {
      const model = textModel(under, () => Promise.reject(undefined));
      const { outcome, ended } = await endedSpans(under, () => new under.sdk.Runner().run(new under.sdk.Agent({ name: 'A', model: model as never }), 'hi'));
      const errorOf = (match: (data: any) => boolean) => ended.find((span) => match(span.span_data))?.error ?? null;
      return {
        outcome,
        agent: errorOf((data) => data.type === 'agent'),
        task: errorOf((data) => data.data?.sdk_span_type === 'task' || data.type === 'task'),
        turn: errorOf((data) => data.data?.sdk_span_type === 'turn' || data.type === 'turn'),
      };
    });
    expect(both.reference).toEqual({
      outcome: 'failed with undefined',
      agent: { message: 'Error in agent run', data: { error: 'undefined' } },
      task: { message: 'Error in agent run', data: { error: 'undefined' } },
      turn: { message: 'Error in agent run', data: { error: 'undefined' } },
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('a guardrail that throws an error whose data is not an object', () => {
  for (const data of ['vault north', 0]) {
    it(`its span has that data as it is (${JSON.stringify(data)}), on both`, async () => {
      const both = await onBoth(async (under) => {
        const model = textModel(under, async () => ({
          output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok' }] }],
          usage: new under.sdk.Usage(),
        }));
        const throwing = { name: 'vault_check', execute: async () => Promise.reject(Object.assign(new Error('vault said no'), { data })) };
        const agent = new under.sdk.Agent({ name: 'A', model: model as never, inputGuardrails: [throwing as never] });
        const { ended } = await endedSpans(under, () => new under.sdk.Runner().run(agent, 'hi'));
        return ended.find((span) => span.span_data.type === 'guardrail')?.error ?? null;
      });
      expect(both.reference).toEqual({ message: 'vault said no', data });
      expect(both.baton).toEqual(both.reference);
    });
  }
});
