// The README: "A failed commit (the claim was lost, the database went away) fails the resume:
// nothing after an uncommitted step runs." With PostgreSQL a fire-and-forget commit is caught only
// by timing; here the store's commitStep itself rejects, on the memory and the SQLite stores, so a
// resume that went on past the uncommitted step (or swallowed the error) fails this test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '@baton/core';
import { resumePausedRun, updatePausedRun, MemoryRunStateStore, type RunStateStore } from '../src/index.js';
import { crashAgent, readLedger } from './support/crashScenario.js';
import { storeBackends } from './support/storeBackends.js';

const dir = mkdtempSync(join(tmpdir(), 'baton-failed-commit-'));
let runs = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The store, except that committing the step `failingKey` rejects (a database that went away). */
function failingCommits(inner: RunStateStore, failingKey: string, attempts: string[]): RunStateStore {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'commitStep') {
        return async (claim: Parameters<RunStateStore['commitStep']>[0], step: Parameters<RunStateStore['commitStep']>[1]) => {
          attempts.push(step.key);
          if (step.key === failingKey) throw new Error('connection to the database was lost');
          return target.commitStep(claim, step);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const backends = storeBackends(() => {
  throw new Error('PostgreSQL is not used here');
}).filter((backend) => backend.name !== 'postgres');

describe.each(backends)('a commitStep that rejects ($name store)', (backend) => {
  it('fails the resume with the store’s error, and nothing after the uncommitted step runs', async () => {
    const { store, close } = await backend.open();
    try {
      const runId = `run-${++runs}`;
      const ledger = join(dir, `${runId}.ledger`);
      // `later`: the approved `pay a`, then a model call that asks for `lookup`, then a final answer.
      const paused = await run(crashAgent('later', ledger).agent, 'go');
      const scratch = new MemoryRunStateStore();
      await scratch.save(runId, paused.state);
      await updatePausedRun(scratch, runId, crashAgent('later', ledger).agent, (state) => {
        for (const item of state.getInterruptions()) state.approve(item, { decidedBy: 'ops' });
      });
      await store.save(runId, (await scratch.load(runId))!.state);

      const attempts: string[] = [];
      const { agent, model } = crashAgent('later', ledger);
      const outcome = await resumePausedRun(failingCommits(store, 'tool:a', attempts), runId, agent, { workerId: 'w1' }).then(
        () => undefined,
        (error: unknown) => error,
      );

      expect(outcome).toBeInstanceOf(Error);
      expect(String((outcome as Error).message) + String((outcome as Error).cause ?? '')).toContain('connection to the database was lost');
      // The tool ran (its commit is what failed); the model was not asked again and `lookup` never ran.
      expect(readLedger(ledger).labels).toEqual(['pay:a']);
      expect(model.calls).toHaveLength(0);
      expect(attempts).toEqual(['tool:a']);
      // The run is not recorded as finished.
      expect((await store.load(runId))?.status).not.toBe('completed');
    } finally {
      await close();
    }
  });
});
