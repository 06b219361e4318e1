import { afterEach, describe, expect, it } from 'vitest';
import { onBoth, sdks, type SdkUnderTest } from './sdks.js';
import { recordEndedSpans } from './endedSpans.js';

/**
 * The guardrail span of a guardrail that throws, side by side. With sensitive data on (the
 * default) the reference records the thrown error's own message on the guardrail span
 * (agents-core `runner/guardrails.js` runs each guardrail in `withGuardrailSpan`, whose failure
 * sets `{ message: error.message, data: error.data }`).
 */

afterEach(() => {
  for (const { sdk } of sdks) sdk.setTraceProcessors([]);
});

async function guardrailSpanError(under: SdkUnderTest) {
  const ended = recordEndedSpans(under);
  const model = {
    async getResponse() {
      return { output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok' }] }], usage: new under.sdk.Usage() };
    },
    getStreamedResponse() {
      throw new Error('not streamed');
    },
  };
  const throwing = { name: 'vault_check', execute: async () => Promise.reject(new Error('vault said no')) };
  const agent = new under.sdk.Agent({ name: 'A', model: model as never, inputGuardrails: [throwing as never] });
  await new under.sdk.Runner().run(agent, 'hi').then(() => undefined, () => undefined);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const span = ended.find((json) => json?.span_data?.type === 'guardrail');
  return { data: span?.span_data, error: JSON.parse(JSON.stringify(span?.error ?? null)) };
}

describe('a guardrail that throws, with sensitive data', () => {
  it('its span carries the thrown error’s message, on both', async () => {
    const both = await onBoth(guardrailSpanError);
    expect(both.reference.error).toEqual({ message: 'vault said no' });
    expect(both.baton).toEqual(both.reference);
  });
});
