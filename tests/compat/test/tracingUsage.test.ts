import { afterEach, describe, expect, it } from 'vitest';
import { onBoth, sdks, type SdkUnderTest } from './sdks.js';
import { recordEndedSpans } from './endedSpans.js';

/**
 * The usage on task and turn spans, side by side: a model whose one response reports the counts
 * given (every other count 0, no request counted), and the usage field each SDK writes on the
 * task and turn spans. The reference writes it when any one count is not 0 — cached input tokens
 * and cache writes included — and leaves it off when all are 0.
 */

afterEach(() => {
  for (const { sdk } of sdks) sdk.setTraceProcessors([]);
});

async function runUsage(under: SdkUnderTest, counts: Record<string, unknown>) {
  const ended = recordEndedSpans(under);
  const usage = new under.sdk.Usage({ requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, ...counts } as never);
  const model = {
    async getResponse() {
      return { output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }], usage };
    },
    getStreamedResponse() {
      throw new Error('not streamed');
    },
  };
  const result = await new under.sdk.Runner().run(new under.sdk.Agent({ name: 'Meter', model: model as never }), 'go');
  expect(result.finalOutput).toBe('done');
  await new Promise((resolve) => setTimeout(resolve, 20));
  const of = (kind: string) => ended.find((span) => span?.span_data?.type === 'custom' && span.span_data.data?.sdk_span_type === kind)?.span_data.data.usage;
  return { task: of('task'), turn: of('turn') };
}

describe('usage on task and turn spans', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['only cached input tokens', { inputTokensDetails: [{ cached_tokens: 2 }] }],
    ['only cache writes', { inputTokensDetails: [{ cache_write_tokens: 6 }] }],
    ['only input tokens', { inputTokens: 5 }],
    ['every count 0', {}],
  ];
  for (const [title, counts] of cases) {
    it(`${title}: the same usage fields on both`, async () => {
      const both = await onBoth((under) => runUsage(under, counts));
      expect(both.baton).toEqual(both.reference);
    });
  }

  it('only cached input tokens: the reference writes the usage (not left off)', async () => {
    const both = await onBoth((under) => runUsage(under, { inputTokensDetails: [{ cached_tokens: 2 }] }));
    expect(both.reference.task).toMatchObject({ cached_input_tokens: 2 });
    expect(both.baton.task).toMatchObject({ cached_input_tokens: 2 });
  });
});
