import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Effect from 'effect/Effect';
import { run, type RunToolCallOutputItem, type StepRunner } from '@baton/core';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { MemoryRunStateStore, resumePausedRun, updatePausedRun, type RunStateStore } from '../src/index.js';
import { crashAgent, readLedger, type CrashScenario } from './support/crashScenario.js';
import { toolOutputsIn } from './support/scenarios.js';
import { storeBackends } from './support/storeBackends.js';

let postgres: PostgresServer | undefined;
const dir = mkdtempSync(join(tmpdir(), 'baton-journal-ledgers-'));
let runs = 0;

beforeAll(async () => {
  postgres = await startPostgres();
});

afterAll(async () => {
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** An approved paused run of `scenario`: its state text, run id in the store and ledger file. */
async function approvedRun(scenario: CrashScenario, options: { withoutRunId?: boolean } = {}) {
  const runId = `run-${++runs}`;
  const ledger = join(dir, `${runId}.ledger`);
  const paused = await run(crashAgent(scenario, ledger).agent, 'go');
  const scratch = new MemoryRunStateStore();
  await scratch.save(runId, paused.state);
  await updatePausedRun(scratch, runId, crashAgent(scenario, ledger).agent, (state) => {
    for (const item of state.getInterruptions()) state.approve(item, { decidedBy: 'ops' });
  });
  let state = (await scratch.load(runId))!.state;
  // States written before run ids existed carry none.
  if (options.withoutRunId) state = JSON.stringify({ ...JSON.parse(state), runId: undefined });
  return { runId, ledger, state, pausedRunId: paused.state.runId };
}

/** A step runner under the journal that fails the run at its `n`th model call (a worker whose model went away). */
function failingAtModelCall(n: number): StepRunner {
  let models = 0;
  return { runStep: (step, effect) => (step.kind === 'model' && ++models === n ? Effect.die(new Error('model down')) : effect) };
}

describe.each(storeBackends(() => postgres!.connectionString))('step journal ($name store)', (backend) => {
  let opened: { store: RunStateStore; close(): Promise<void> };
  beforeAll(async () => {
    opened = await backend.open();
  });
  afterAll(() => opened.close());

  it('commits each step as soon as it exists: of two concurrent calls, the finished one is committed while the other runs', async () => {
    const { store } = opened;
    const { runId, ledger, state } = await approvedRun('pair');
    await store.save(runId, state);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { agent } = crashAgent('pair', ledger, (label) => (label === 'pay:b' ? gate : undefined));
    const outcome = resumePausedRun(store, runId, agent, { workerId: 'w1' });
    await waitFor(async () => (await store.committedSteps(runId)).some((s) => s.key === 'tool:a'));
    expect(readLedger(ledger).labels).toEqual(['pay:a', 'pay:b']);
    expect((await store.committedSteps(runId)).map((s) => s.key)).toEqual(['tool:a']);
    open();
    expect((await outcome).status).toBe('completed');
    // Finishing clears the journal: the stored state holds every result.
    expect(await store.committedSteps(runId)).toEqual([]);
  });

  it('a retry replays the committed model and tool steps of later turns (same call ids) and runs none of them again', async () => {
    const { store } = opened;
    const { runId, ledger, state, pausedRunId } = await approvedRun('later');
    await store.save(runId, state);
    // Worker 1: pays, the model calls lookup, lookup runs; then the model fails on the last turn.
    const first = crashAgent('later', ledger);
    await expect(resumePausedRun(store, runId, first.agent, { workerId: 'w1', runOptions: { stepRunner: failingAtModelCall(2) } })).rejects.toThrow('model down');
    const keys = (await store.committedSteps(runId)).map((s) => s.key);
    const lookupKey = keys.find((k) => k.startsWith('tool:lookup_'));
    expect(keys.sort()).toEqual(['t2:model', 'tool:a', lookupKey].sort());
    expect((await store.load(runId))!).toMatchObject({ status: 'paused', state });

    const retry = crashAgent('later', ledger);
    const outcome = await resumePausedRun(store, runId, retry.agent, { workerId: 'w2' });
    expect(outcome.status).toBe('completed');
    expect(readLedger(ledger).labels).toEqual(['pay:a', 'lookup']);
    // Only the last turn asked the model; it saw the outputs under the committed call ids.
    expect(retry.model.calls).toHaveLength(1);
    expect(toolOutputsIn(retry.model.calls[0]!.request)).toEqual({ a: 'paid a', [lookupKey!.slice('tool:'.length)]: 'found' });
    // The tools saw the run id the run was given when it first started, in both workers.
    expect([...readLedger(ledger).runIds]).toEqual([pausedRunId]);
    expect(outcome.status === 'completed' && outcome.result.state.runId).toBe(pausedRunId);
  });

  it('a state stored without a run id gets one on its first resume, committed, so the retry keeps it', async () => {
    const { store } = opened;
    const { runId, ledger, state } = await approvedRun('later', { withoutRunId: true });
    await store.save(runId, state);
    await expect(resumePausedRun(store, runId, crashAgent('later', ledger).agent, { workerId: 'w1', runOptions: { stepRunner: failingAtModelCall(2) } })).rejects.toThrow();
    const given = (await store.committedSteps(runId)).find((s) => s.key === 'id:run')?.result;
    expect(typeof given).toBe('string');
    const outcome = await resumePausedRun(store, runId, crashAgent('later', ledger).agent, { workerId: 'w2' });
    expect(outcome.status === 'completed' && outcome.result.state.runId).toBe(given);
    expect([...readLedger(ledger).runIds]).toEqual([given]);
  });

  it("honours a previous version's committed tool outputs: its tables are upgraded in place and its unfinished run resumes without re-running them", async () => {
    const { runId, ledger, state } = await approvedRun('pair', { withoutRunId: true });
    // What the previous version committed for call `a`: the output item, without its agent.
    const scratch = new MemoryRunStateStore();
    await scratch.save(runId, state);
    const done = await resumePausedRun(scratch, runId, crashAgent('pair', join(dir, `${runId}.scratch`)).agent, { workerId: 'scratch' });
    if (done.status === 'not_claimed') throw new Error('not claimed');
    const output = done.result.newItems.find((i): i is RunToolCallOutputItem => i.type === 'tool_call_output_item' && i.rawItem.callId === 'a')!;
    const { agent: _agent, ...item } = output.toJSON();

    const upgraded = await backend.upgrade({ runId, state, outputs: [{ callId: 'a', item: JSON.stringify(item) }] });
    try {
      const { store } = upgraded;
      expect(await store.committedToolOutputs(runId)).toEqual([{ callId: 'a', item: JSON.stringify(item) }]);
      expect(await store.committedSteps(runId)).toEqual([]);
      const next = crashAgent('pair', ledger);
      const outcome = await resumePausedRun(store, runId, next.agent, { workerId: 'next-version' });
      expect(outcome.status).toBe('completed');
      expect(readLedger(ledger).labels).toEqual(['pay:b']);
      expect(toolOutputsIn(next.model.calls[0]!.request)).toEqual({ a: 'paid a', b: 'paid b' });
      expect(await store.committedToolOutputs(runId)).toEqual([]);
    } finally {
      await upgraded.close();
    }
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
