// The guardrails README promises that a parallel input guardrail's tripwire "aborts the request":
// the model call is cancelled as soon as one guardrail trips, while slower sibling guardrails are
// still running (they are drained and recorded afterwards). A test that only checks the request
// ended up aborted cannot tell "at once" from "after the whole batch"; this one records the order.
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage, modelResponder } from '@baton/testing';
import { Agent, InputGuardrailTripwireTriggered, run, type InputGuardrail } from '../src/index.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the run to fail, but it succeeded');
}

describe('a parallel input guardrail that trips', () => {
  it('aborts the model call before its slower siblings finish (fast_trip → model aborted → siblings)', async () => {
    const log: string[] = [];
    const model = new ScriptedModel([
      modelResponder(async (call) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => (log.push('model answered'), resolve()), 2_000);
          call.request.signal?.addEventListener('abort', () => (clearTimeout(timer), log.push('model aborted'), resolve()), { once: true });
        });
        return [assistantMessage('never used')];
      }),
    ]);
    const fastTrip: InputGuardrail = {
      name: 'fast_trip',
      execute: async () => (await sleep(10), log.push('fast_trip'), { tripwireTriggered: true, outputInfo: 'tripped' }),
    };
    const slowSibling: InputGuardrail = {
      name: 'slow_sibling',
      execute: async () => (await sleep(300), log.push('slow_sibling'), { tripwireTriggered: false, outputInfo: 'fine' }),
    };
    const agent = new Agent({ name: 'A', model, inputGuardrails: [slowSibling, fastTrip] });

    const error = await rejectionOf(run(agent, 'hi'));

    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.result.guardrail.name).toBe('fast_trip');
    // The sibling still ran to completion and its result is recorded, but only after the abort.
    expect(log).toEqual(['fast_trip', 'model aborted', 'slow_sibling']);
    expect(error.state.inputGuardrailResults.map((r: { guardrail: { name: string } }) => r.guardrail.name)).toEqual(['slow_sibling', 'fast_trip']);
  });

  it('a guardrail that throws aborts the model call at once too', async () => {
    const log: string[] = [];
    const model = new ScriptedModel([
      modelResponder(async (call) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => (log.push('model answered'), resolve()), 2_000);
          call.request.signal?.addEventListener('abort', () => (clearTimeout(timer), log.push('model aborted'), resolve()), { once: true });
        });
        return [assistantMessage('never used')];
      }),
    ]);
    const thrower: InputGuardrail = {
      name: 'thrower',
      execute: async () => {
        await sleep(10);
        log.push('thrower');
        throw new Error('moderation service down');
      },
    };
    const slowSibling: InputGuardrail = {
      name: 'slow_sibling',
      execute: async () => (await sleep(300), log.push('slow_sibling'), { tripwireTriggered: false }),
    };
    const agent = new Agent({ name: 'A', model, inputGuardrails: [thrower, slowSibling] });

    await rejectionOf(run(agent, 'hi'));

    expect(log).toEqual(['thrower', 'model aborted', 'slow_sibling']);
  });
});
