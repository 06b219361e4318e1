import { describe, expect, it } from 'vitest';
import { ScriptedModel, aborted, modelStream, within, type RecordedModelCall } from '@baton/testing';
import { InputGuardrailTripwireTriggered, type ModelStreamEvent } from '@baton/types';
import { Agent, run, type RunStreamEvent } from '../src/index.js';

/**
 * A reader waiting on the model stream (the read goes to the provider directly) when the run ends
 * under it: its read is answered once the provider's read settles, which the run's abort brings
 * about at once for a provider that honours `request.signal`.
 */

/** One text delta, then a wait the request's abort ends (as a fetch-based provider's stream does). */
function stalledAfterOneDelta(started: () => void) {
  return modelStream(async function* (call: RecordedModelCall): AsyncGenerator<ModelStreamEvent> {
    yield { type: 'output_text_delta', delta: 'hel' };
    started();
    await aborted(call.request.signal);
    throw Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
  } as never);
}

async function readAll(events: AsyncIterable<RunStreamEvent>, seen: string[]): Promise<unknown> {
  try {
    for await (const event of events) seen.push(event.type === 'raw_model_stream_event' ? `raw ${event.data.type}` : event.type);
    return 'ended';
  } catch (error) {
    return error;
  }
}

describe('a reader waiting on the model stream when the run ends', () => {
  it('cancelled by the caller: the waiting read ends as soon as the provider sees the abort', async () => {
    let started!: () => void;
    const streaming = new Promise<void>((resolve) => (started = resolve));
    const model = new ScriptedModel([stalledAfterOneDelta(() => started())]);
    const result = await run(new Agent({ name: 'A', model }), 'hi', { stream: true });
    const seen: string[] = [];
    const reading = readAll(result, seen);
    await streaming;
    await new Promise((resolve) => setTimeout(resolve, 5)); // the reader now waits on the provider's next event
    result.cancel();
    expect(await within(reading, 1_000, 'the waiting read did not end after the cancel')).toBe('ended');
    await within(result.completed, 1_000, 'completed did not settle');
    expect(seen).toContain('raw output_text_delta');
    expect(result.cancelled).toBe(true);
  });

  it('an input guardrail trips while the model streams: the waiting read gets the tripwire as soon as the provider sees the abort', async () => {
    let started!: () => void;
    const streaming = new Promise<void>((resolve) => (started = resolve));
    let trip!: () => void;
    const tripped = new Promise<void>((resolve) => (trip = resolve));
    const model = new ScriptedModel([stalledAfterOneDelta(() => started())]);
    const agent = new Agent({
      name: 'A',
      model,
      inputGuardrails: [{ name: 'late', runInParallel: true, execute: async () => (await tripped, { tripwireTriggered: true, outputInfo: 'no' }) }],
    });
    const result = await run(agent, 'hi', { stream: true });
    const seen: string[] = [];
    const reading = readAll(result, seen);
    await streaming;
    await new Promise((resolve) => setTimeout(resolve, 5));
    trip();
    const ended = await within(reading, 1_000, 'the waiting read did not end after the tripwire');
    expect(ended).toBeInstanceOf(InputGuardrailTripwireTriggered);
    await expect(result.completed).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered);
  });
});
