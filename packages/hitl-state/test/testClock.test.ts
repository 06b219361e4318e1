import { Clock, Duration, Effect } from 'effect';
import { TestClock } from 'effect/testing';
import { describe, expect, it } from 'vitest';
import { Agent, Runner, type RunResult } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { MemoryRunStateStore, setApprovalExpiries } from '../src/index.js';
import { Executions, approvalTool, toolOutputsIn } from './support/scenarios.js';

// Approval expiry and store leases read the clock of the run's fiber (or the clock a store was
// given), so an Effect test moves time with TestClock instead of waiting or faking timers.

const PAUSED = '{"$schemaVersion":"1"}';

const runIn = <A>(program: Effect.Effect<A, unknown>) => Effect.runPromise(program.pipe(Effect.provide(TestClock.layer())) as Effect.Effect<A, unknown>);

describe('time under TestClock', () => {
  it.each([
    ['approved within the TTL: the tool runs', Duration.seconds(30), 'ran'],
    ['the TTL passed: the call counts as rejected and the tool does not run', Duration.minutes(2), 'expired'],
  ] as const)('%s', async (_label, wait, expected) => {
    const outcome = await runIn(
      Effect.gen(function* () {
        const executions = new Executions();
        const model = new ScriptedModel([[functionCall('pay', { target: 'a' }, { callId: 'a' })], [assistantMessage('done')]]);
        const agent = new Agent({ name: 'Banker', model, tools: [approvalTool('pay', executions)] });
        const runner = new Runner();
        const paused = (yield* runner.runEffect(agent, 'pay a')) as RunResult<unknown, Agent>;
        setApprovalExpiries(paused.state, { ttlMs: 60_000 });
        yield* TestClock.adjust(wait);
        if (expected === 'ran') paused.state.approve(paused.interruptions[0]!);
        yield* runner.runEffect(agent, paused.state);
        const output = toolOutputsIn(model.calls[1]!.request).a;
        const ran = executions.calls.length === 1 && String(output).includes('pay done');
        return ran ? 'ran' : executions.calls.length === 0 && String(output).includes('expired') ? 'expired' : `unexpected: ${String(output)}`;
      }),
    );
    expect(outcome).toBe(expected);
  });

  it('a store lease expires when the test clock passes it, so another worker can claim the run', async () => {
    const claims = await runIn(
      Effect.gen(function* () {
        const store = new MemoryRunStateStore({ clock: yield* Clock.Clock });
        yield* Effect.promise(() => store.save('run-1', PAUSED));
        const first = yield* Effect.promise(() => store.claim('run-1', { workerId: 'w1', leaseMs: 60_000 }));
        const whileHeld = yield* Effect.promise(() => store.claim('run-1', { workerId: 'w2', leaseMs: 60_000 }));
        yield* TestClock.adjust(Duration.seconds(61));
        const afterLease = yield* Effect.promise(() => store.claim('run-1', { workerId: 'w2', leaseMs: 60_000 }));
        return [first?.workerId, whileHeld, afterLease?.workerId];
      }),
    );
    expect(claims).toEqual(['w1', undefined, 'w2']);
  });
});
