import { describe, expect, it } from 'vitest';
import { FakeOpenAIServer, fakeError, fakeText } from '@baton/testing';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// modelSettings.retry with a policy: the runner retries failed model calls as the policy decides,
// after its own safety checks. Run on both SDKs with the same scripted failures.

const fast = { initialDelayMs: 1, maxDelayMs: 2, jitter: false };

function httpError(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`HTTP ${status}`), { status, headers: new Headers(headers) });
}

function networkError(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

type Script = (testing: SdkUnderTest['testing']) => unknown[];

async function runWith(
  { sdk, testing }: SdkUnderTest,
  script: Script,
  retry: (policies: any) => Record<string, unknown>,
  options: { stream?: boolean; previousResponseId?: string } = {},
) {
  const model = new testing.ScriptedModel(script(testing) as never);
  const agent = new sdk.Agent({ name: 'A', model, modelSettings: { retry: retry((sdk as any).retryPolicies) } as never });
  const runOptions = options.previousResponseId ? { previousResponseId: options.previousResponseId } : {};
  const outcome = await outcomeOf(
    (async () => {
      if (!options.stream) return (await sdk.run(agent, 'go', runOptions)).finalOutput;
      const streamed = await sdk.run(agent, 'go', { ...runOptions, stream: true });
      for await (const _event of streamed) void _event;
      await streamed.completed;
      return streamed.finalOutput;
    })(),
  );
  return { outcome: outcome.ok ? outcome.value : (outcome.error as Error).message, calls: model.calls.length };
}

describe('model retries with a policy (same on both SDKs)', () => {
  const ok = (testing: SdkUnderTest['testing']) => [testing.assistantMessage('ok')];

  it.each([
    ['httpStatus retries a listed status', (t: any) => [t.modelError(httpError(503)), ok(t)], (p: any) => ({ maxRetries: 2, backoff: fast, policy: p.httpStatus([503]) })],
    ['httpStatus leaves other statuses', (t: any) => [t.modelError(httpError(400)), ok(t)], (p: any) => ({ maxRetries: 2, backoff: fast, policy: p.httpStatus([503]) })],
    ['networkError retries a reset connection', (t: any) => [t.modelError(networkError()), ok(t)], (p: any) => ({ maxRetries: 1, backoff: fast, policy: p.networkError() })],
    ['maxRetries bounds the attempts', (t: any) => [t.modelError(httpError(503)), t.modelError(httpError(503)), t.modelError(httpError(503)), ok(t)], (p: any) => ({ maxRetries: 2, backoff: fast, policy: p.httpStatus([503]) })],
    ['no maxRetries means no retry', (t: any) => [t.modelError(httpError(503)), ok(t)], (p: any) => ({ backoff: fast, policy: p.httpStatus([503]) })],
    ['never', (t: any) => [t.modelError(httpError(503)), ok(t)], (p: any) => ({ maxRetries: 2, policy: p.never() })],
    ['retryAfter waits as the server asked', (t: any) => [t.modelError(httpError(429, { 'retry-after-ms': '5' })), ok(t)], (p: any) => ({ maxRetries: 1, policy: p.retryAfter() })],
    ['retryAfter reads responseHeaders too', (t: any) => [t.modelError(Object.assign(new Error('busy'), { responseHeaders: { 'Retry-After': '0.005' } })), ok(t)], (p: any) => ({ maxRetries: 1, policy: p.retryAfter() })],
    ['retryAfter without the header', (t: any) => [t.modelError(httpError(429)), ok(t)], (p: any) => ({ maxRetries: 1, policy: p.retryAfter() })],
    ['any of two', (t: any) => [t.modelError(networkError()), t.modelError(httpError(502)), ok(t)], (p: any) => ({ maxRetries: 3, backoff: fast, policy: p.any(p.httpStatus([502]), p.networkError()) })],
    ['all of two', (t: any) => [t.modelError(httpError(502)), ok(t)], (p: any) => ({ maxRetries: 3, backoff: fast, policy: p.all(p.httpStatus([502]), p.networkError()) })],
    ['a custom policy function', (t: any) => [t.modelError(httpError(500)), ok(t)], () => ({ maxRetries: 1, backoff: fast, policy: ({ attempt, normalized }: any) => attempt === 1 && normalized.statusCode === 500 })],
  ])('%s', async (_label, script, retry) => {
    const both = await onBoth((under) => runWith(under, script as Script, retry));
    expect(both.baton).toEqual(both.reference);
  });

  it.each([
    ['suggested', { suggested: true }],
    ['vetoed', { suggested: false, reason: 'quota exhausted' }],
    ['silent', undefined],
  ])('providerSuggested follows the model’s advice (%s)', async (_label, advice) => {
    const both = await onBoth((under) =>
      runWith(under, (t: any) => [t.modelError(httpError(500), advice), ok(t)], (p: any) => ({ maxRetries: 1, backoff: fast, policy: p.providerSuggested() })),
    );
    expect(both.baton).toEqual(both.reference);
  });

  it('a provider veto wins over another policy inside any()', async () => {
    const both = await onBoth((under) =>
      runWith(under, (t: any) => [t.modelError(httpError(503), { suggested: false }), ok(t)], (p: any) => ({ maxRetries: 1, backoff: fast, policy: p.any(p.providerSuggested(), p.httpStatus([503])) })),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.calls).toBe(1);
  });

  it('a stateful request (previousResponseId) is not replayed unless the provider says it is safe', async () => {
    const both = await onBoth(async (under) => ({
      unknown: await runWith(under, (t: any) => [t.modelError(httpError(503)), ok(t)], (p: any) => ({ maxRetries: 1, backoff: fast, policy: p.httpStatus([503]) }), { previousResponseId: 'resp_1' }),
      safe: await runWith(
        under,
        (t: any) => [t.modelError(httpError(503), { suggested: true, replaySafety: 'safe' }), ok(t)],
        (p: any) => ({ maxRetries: 1, backoff: fast, policy: p.providerSuggested() }),
        { previousResponseId: 'resp_1' },
      ),
    }));
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.unknown.calls).toBe(1);
    expect(both.baton.safe.calls).toBe(2);
  });

  it('streamed: a failure before any event is retried', async () => {
    const both = await onBoth((under) =>
      runWith(under, (t: any) => [t.modelError(httpError(503)), ok(t)], (p: any) => ({ maxRetries: 1, backoff: fast, policy: p.httpStatus([503]) }), { stream: true }),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.calls).toBe(2);
  });

  it('streamed: a failure after the stream produced events is never retried', async () => {
    const both = await onBoth((under) =>
      runWith(
        under,
        (t: any) => [
          t.modelStream(
            (async function* () {
              yield { type: 'response_started' };
              throw httpError(503);
            })(),
          ),
          ok(t),
        ],
        (p: any) => ({ maxRetries: 1, backoff: fast, policy: p.httpStatus([503]) }),
        { stream: true },
      ),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.calls).toBe(1);
  });
});

describe('retryPolicies used directly (same on both SDKs)', () => {
  const context = (over: Record<string, unknown> = {}) => ({ error: new Error('x'), attempt: 1, maxRetries: 3, stream: false, normalized: { isNetworkError: false, isAbort: false }, ...over });

  it('decisions of each policy and of combinations', async () => {
    const both = await onBoth(async ({ sdk }) => {
      const p = (sdk as any).retryPolicies;
      const decide = async (policy: any, over?: Record<string, unknown>) => JSON.stringify(await policy(context(over)));
      return [
        await decide(p.never()),
        await decide(p.networkError(), { normalized: { isNetworkError: true, isAbort: false } }),
        await decide(p.httpStatus([429]), { normalized: { statusCode: 429, isNetworkError: false, isAbort: false } }),
        await decide(p.retryAfter(), { normalized: { retryAfterMs: 40, isNetworkError: false, isAbort: false } }),
        await decide(p.providerSuggested(), { providerAdvice: { suggested: true, retryAfterMs: 7, reason: 'busy' } }),
        await decide(p.providerSuggested(), { providerAdvice: { suggested: false, reason: 'no' } }),
        await decide(p.any(p.never(), p.retryAfter()), { normalized: { retryAfterMs: 9, isNetworkError: false, isAbort: false } }),
        await decide(p.all(p.retryAfter(), p.httpStatus([503])), { normalized: { retryAfterMs: 9, statusCode: 503, isNetworkError: false, isAbort: false } }),
        await decide(p.all()),
        await decide(p.any(p.providerSuggested(), (() => ({ retry: true, approveUnsafeReplay: true, delayMs: 3 })) as never), { providerAdvice: { suggested: false, replaySafety: 'unsafe' } }),
      ];
    });
    expect(both.baton).toEqual(both.reference);
  });
});

describe('model retries through the real openai client (same on both SDKs)', () => {
  it.each([
    ['a 429 is retried on the provider’s advice', [fakeError(429, undefined, { headers: { 'retry-after-ms': '1' } }), fakeText('ok')]],
    ['a 400 is not', [fakeError(400), fakeText('ok')]],
  ] as const)('%s', async (_label, turns) => {
    const both = await onBoth(async (under) => {
      const server = await FakeOpenAIServer.start({ turns: [...turns] });
      try {
        const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
        const runner = new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
        const policy = (under.sdk as any).retryPolicies.providerSuggested();
        const agent = new under.sdk.Agent({ name: 'A', modelSettings: { retry: { maxRetries: 2, backoff: fast, policy } } as never });
        const outcome = await outcomeOf(runner.run(agent, 'go'));
        return { outcome: outcome.ok ? outcome.value.finalOutput : 'failed', requests: server.requests.length };
      } finally {
        await server.close();
      }
    });
    expect(both.baton).toEqual(both.reference);
  });
});
