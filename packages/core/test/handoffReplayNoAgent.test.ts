import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, Handoff, Runner, UserError, type JsonValue, type StepRunner } from '../src/index.js';

// The core README (step boundaries): "a handoff is the target agent's name", and "given the same
// step results, the loop is deterministic". A handoff callback that produced no agent at all has no
// name to record: its step is still a success (the callback returned), recorded as `null`, and the
// run then fails with the handoff's UserError, live and on replay alike.

describe('a handoff callback that produced no agent, under a recording step runner', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a function (which has a name)', function Billing() {}],
  ])('returning %s is recorded as null and fails the run with the UserError, live and on replay', async (_label, produced) => {
    const build = () =>
      new Agent({
        name: 'Triage',
        model: new ScriptedModel([[functionCall('transfer_to_Billing', {}, { callId: 'h1' })]]),
        handoffs: [new Handoff(new Agent({ name: 'Billing', model: new ScriptedModel([[assistantMessage('billed')]]) }), () => produced as never)],
      });
    const tape = new Map<string, JsonValue>();
    const recording: StepRunner = {
      runStep: (step, effect) => effect.pipe(Effect.tap((value) => Effect.sync(() => tape.set(step.key, step.codec.encode(value))))),
    };
    const live = await new Runner({ stepRunner: recording }).run(build(), 'money').catch((e: unknown) => e);
    expect(live).toBeInstanceOf(UserError);
    expect((live as Error).message).toBe('Handoff "transfer_to_Billing" did not produce an agent.');
    expect(tape.get('handoff:h1')).toBeNull();
    const replaying: StepRunner = {
      runStep: (step, effect) => (tape.has(step.key) ? Effect.sync(() => step.codec.decode(tape.get(step.key)!)) : effect),
    };
    const replayed = await new Runner({ stepRunner: replaying }).run(build(), 'money').catch((e: unknown) => e);
    expect(replayed).toBeInstanceOf(UserError);
  });
});
