import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage, modelStream } from '@baton/testing';
import { Agent, InputGuardrailTripwireTriggered, OutputGuardrailTripwireTriggered, Usage, run, type RunStreamEvent } from '@baton/core';
import { defineInputGuardrail, defineOutputGuardrail } from '../src/index.js';
import { aborted, deferred, drain, rejectionOf, sleep } from './helpers.js';

function deltas(events: RunStreamEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'raw_model_stream_event' && e.data.type === 'output_text_delta' ? [e.data.delta] : []));
}

describe('guardrails in streamed runs', () => {
  it('a parallel tripwire stops the stream at once: delivered events stay delivered, the request is aborted', async () => {
    const firstDeltaSeen = deferred();
    const modelSawAbort = deferred<boolean>();
    const model = new ScriptedModel([
      modelStream(async function* (call) {
        yield { type: 'response_started' };
        yield { type: 'output_text_delta', delta: 'Hel' };
        const outcome = await Promise.race([aborted(call.request.signal).then(() => true), sleep(1_000).then(() => false)]);
        modelSawAbort.resolve(outcome);
        yield { type: 'output_text_delta', delta: 'lo' };
        yield { type: 'response_done', response: { id: 'r1', usage: new Usage({ requests: 1 }), output: [assistantMessage('Hello')] } };
      }),
    ]);
    const guardrail = defineInputGuardrail({
      name: 'late_trip',
      execute: async () => (await firstDeltaSeen.promise, { tripwireTriggered: true, outputInfo: { reason: 'abuse' } }),
    });
    const agent = new Agent({ name: 'A', model, inputGuardrails: [guardrail] });

    const startedAt = Date.now();
    const result = await run(agent, 'hi', { stream: true });
    const { events, error: ended } = await drain(result, (_event, seen) => {
      if (deltas(seen).length === 1) firstDeltaSeen.resolve();
    });
    const error = await rejectionOf(result.completed);
    expect(ended).toBe(error);

    expect(Date.now() - startedAt).toBeLessThan(1_000); // sooner than the model's own 1 s wait: the abort ended it
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.message).toBe('Input guardrail triggered: {"reason":"abuse"}');
    expect(result.error).toBe(error);
    expect(deltas(events)).toEqual(['Hel']);
    expect(await modelSawAbort.promise).toBe(true);
    expect(result.finalOutput).toBeUndefined();
  });

  it('a blocking tripwire ends the stream before any model request', async () => {
    const model = new ScriptedModel([[assistantMessage('never')]]);
    const blocking = defineInputGuardrail({ name: 'block', runInParallel: false, execute: () => ({ tripwireTriggered: true, outputInfo: 'no' }) });
    const agent = new Agent({ name: 'A', model, inputGuardrails: [blocking] });
    const result = await run(agent, 'hi', { stream: true });
    const { events, error } = await drain(result);
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(await rejectionOf(result.completed)).toBe(error);
    expect(events.filter((e) => e.type === 'raw_model_stream_event')).toEqual([]);
    expect(model.calls).toHaveLength(0);
  });

  it('finalOutput stays hidden while output guardrails run, and is revealed once they pass', async () => {
    const started = deferred();
    const release = deferred();
    const slow = defineOutputGuardrail({ name: 'slow', execute: async () => (started.resolve(), await release.promise, { tripwireTriggered: false }) });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('final answer')]]), outputGuardrails: [slow] });
    const result = await run(agent, 'hi', { stream: true });
    const events: RunStreamEvent[] = [];
    const consumed = (async () => {
      for await (const event of result) events.push(event);
    })();

    await started.promise;
    await sleep(10);
    expect(events.some((e) => e.type === 'run_item_stream_event' && e.name === 'message_output_created')).toBe(true);
    expect(result.finalOutput).toBeUndefined();
    release.resolve();
    await result.completed;
    await consumed;
    expect(result.finalOutput).toBe('final answer');
    expect(result.outputGuardrailResults.map((r) => r.guardrail.name)).toEqual(['slow']);
  });

  it('finalOutput stays hidden after an output guardrail trips', async () => {
    const trip = defineOutputGuardrail({ name: 'trip', execute: () => ({ tripwireTriggered: true, outputInfo: 'bad' }) });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('rejected answer')]]), outputGuardrails: [trip] });
    const result = await run(agent, 'hi', { stream: true });
    const { events, error: ended } = await drain(result);
    const error = await rejectionOf(result.completed);
    expect(ended).toBe(error);
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(error.message).toBe('Output guardrail triggered: "bad"');
    expect(deltas(events)).toEqual(['rejected answer']);
    expect(result.finalOutput).toBeUndefined();
  });
});
