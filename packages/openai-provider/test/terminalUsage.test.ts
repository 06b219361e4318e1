import { describe, expect, it } from 'vitest';
import { Agent, Runner, type Model, type ModelRequest, type ModelStreamEvent } from '@baton/core';
import { fakeText } from '@baton/testing';
import { OpenAIResponseError } from '../src/index.js';
import { fakeServer, modelFor, request } from './helpers.js';

// An unsuccessful terminal event (response.incomplete, response.failed) is billed: a reader that
// stops right there (its run cancelled, an input guardrail tripped) still learns of the failure and
// its usage when it closes the stream, so the run's usage counts it.

const isTerminal = (event: ModelStreamEvent) => event.type === 'model' && (event.event as { type?: string }).type === 'response.incomplete';

describe('an unsuccessful terminal event and a reader that stops at it', () => {
  it.each(['incomplete', 'failed'] as const)('closing the stream at a response.%s event rejects with the failure and its usage', async (status) => {
    const server = await fakeServer(fakeText('partial', { status, usage: { inputTokens: 3, outputTokens: 4 } }));
    const events = modelFor(server, 'responses').getStreamedResponse(request())[Symbol.asyncIterator]();
    for (;;) {
      const next = await events.next();
      expect(next.done).toBe(false);
      if (next.value.type === 'model' && (next.value.event as { type?: string }).type === `response.${status}`) break;
    }
    const closing = await Promise.resolve(events.return!()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(closing).toBeInstanceOf(OpenAIResponseError);
    expect((closing as OpenAIResponseError).terminal).toBe(`response.${status}`);
    expect((closing as OpenAIResponseError).usage).toMatchObject({ requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  });

  it('a reader that goes on gets the failure from the next read, as before', async () => {
    const server = await fakeServer(fakeText('partial', { status: 'incomplete', usage: { inputTokens: 3, outputTokens: 4 } }));
    const events = modelFor(server, 'responses').getStreamedResponse(request())[Symbol.asyncIterator]();
    for (;;) {
      const next = await events.next();
      if (next.done === false && isTerminal(next.value)) break;
    }
    await expect(events.next()).rejects.toBeInstanceOf(OpenAIResponseError);
    await expect(events.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it.each(['a cancelled run', 'an input guardrail that trips'] as const)('%s stopped at the terminal event counts its usage', async (stop) => {
    const server = await fakeServer(fakeText('partial', { status: 'incomplete', usage: { inputTokens: 3, outputTokens: 4 } }));
    const inner = modelFor(server, 'responses');
    const controller = new AbortController();
    let releaseGuardrail!: () => void;
    const guardrailGate = new Promise<void>((resolve) => (releaseGuardrail = resolve));
    // The run stops right after the terminal event reached it, before it reads on.
    const model: Model = {
      getResponse: (req: ModelRequest) => inner.getResponse(req),
      async *getStreamedResponse(req: ModelRequest) {
        for await (const event of inner.getStreamedResponse(req)) {
          if (isTerminal(event) && stop === 'an input guardrail that trips') {
            releaseGuardrail();
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
          // The caller cancels as the terminal event is handed over, before the run forwards it.
          if (isTerminal(event) && stop === 'a cancelled run') queueMicrotask(() => controller.abort());
          yield event;
        }
      },
    };
    const guardrail = { name: 'gate', execute: async () => (await guardrailGate, { tripwireTriggered: true, outputInfo: null }) };
    const agent = new Agent({ name: 'A', model, ...(stop === 'an input guardrail that trips' ? { inputGuardrails: [guardrail] } : {}) });
    const result = await new Runner().run(agent, 'hello', { stream: true, signal: controller.signal });
    const outcome = await result.completed.then(
      () => 'completed',
      (error: Error) => error.name,
    );
    // A run cancelled as its model call fails (here: the response was incomplete) reports that failure,
    // as the reference's does (tests/compat streamedCancelOutcome); the usage counts either way.
    expect(outcome).toBe(stop === 'a cancelled run' ? 'ModelBehaviorError' : 'InputGuardrailTripwireTriggered');
    expect(result.state.usage).toMatchObject({ requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  });
});
