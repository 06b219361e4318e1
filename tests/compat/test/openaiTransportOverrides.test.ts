import { describe, expect, it } from 'vitest';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// providerData's transport overrides (extra_headers / extra_query / extra_body) that are not plain
// objects are refused before a request is sent; a WebSocket request that may have been accepted is
// never replayed, whatever error carries the news. Same on both SDKs.

const request = (providerData: Record<string, unknown>) => ({ input: 'hello', modelSettings: { providerData }, tools: [], outputType: 'text', handoffs: [], tracing: false });
const MAY_HAVE_BEEN_ACCEPTED =
  'Responses websocket connection closed after sending a request on a reused connection before any response events were received. The request may have been accepted, so the SDK will not automatically retry this websocket request.';

async function refusal({ sdk }: SdkUnderTest, providerData: Record<string, unknown>) {
  let sent = 0;
  const client = { responses: { create: async () => { sent += 1; throw new Error('sent'); } } };
  const model = new (sdk as any).OpenAIResponsesModel(client, 'gpt-test');
  const outcome = await outcomeOf(sdk.withTrace('overrides', () => model.getResponse(request(providerData))));
  // Past the check, the fake client's own failure differs by SDK (Baton wraps it): only `sent` counts.
  if (sent > 0) return { sent };
  // Baton adds its own detail after the reference's sentence: compare the sentence.
  return { error: outcome.ok ? 'none' : outcome.name, message: outcome.ok ? 'ok' : (outcome.error as Error).message.split(' (')[0], sent };
}

function advice({ sdk }: SdkUnderTest, error: Error) {
  const model = new (sdk as any).OpenAIResponsesWSModel({ responses: { create: async () => undefined } }, 'gpt-test');
  return model.getRetryAdvice({ error, request: request({}), stream: true, attempt: 1 });
}

describe('OpenAI transport overrides and WebSocket replay advice (same on both SDKs)', () => {
  it.each([
    ['URLSearchParams as extra_query', { extra_query: new URLSearchParams({ tenant: 'acme' }) }],
    ['an array as extraHeaders', { extraHeaders: [['x-a', '1']] }],
    ['null as extra_body', { extra_body: null }],
    ['several bad ones', { extra_body: [], extra_query: 'q', extra_headers: 'h' }],
    ['plain objects', { extra_query: { tenant: 'acme' }, extra_headers: { 'x-a': '1' } }],
  ])('%s', async (_label, providerData) => {
    const both = await onBoth((under) => refusal(under, providerData));
    expect(both.baton).toEqual(both.reference);
  });

  it.each([
    ['the reference transport message', new Error(MAY_HAVE_BEEN_ACCEPTED)],
    ['the message with x-should-retry: true', Object.assign(new Error(MAY_HAVE_BEEN_ACCEPTED), { headers: { 'x-should-retry': 'true' } })],
    ['another close', new Error('Responses websocket connection closed.')],
  ])('getRetryAdvice for %s', async (_label, error) => {
    const both = await onBoth(async (under) => advice(under, error));
    expect(both.baton).toEqual(both.reference);
  });
});
