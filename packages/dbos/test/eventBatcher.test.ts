import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { RunEventBatcher } from '../src/internal/runEventBatcher.js';
import { createEventsTable, EVENTS_LISTENING_LOCK, readRunEvents, type RunEventRow } from '../src/internal/runEvents.js';
import { RunEventWriter } from '../src/internal/runEventWriter.js';

// A worker's run-event writes (README, "Commits per step"): batched across its runs, off the runs'
// path; a run's events in order; a replay writes nothing new; one run's event that PostgreSQL
// refuses fails that run's events only.
let postgres: PostgresServer;
let pool: pg.Pool;
/** Statements the pool was asked to run. */
let statements = 0;

beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.connectionString, max: 4 });
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    statements++;
    return query(...args);
  }) as typeof pool.query;
  const client = await pool.connect();
  try {
    await createEventsTable(client);
  } finally {
    client.release();
  }
});

afterAll(async () => {
  await pool?.end();
  postgres?.stop();
});

const writer = (batcher: RunEventBatcher, runId: string) => new RunEventWriter(batcher, { runId, revision: 0, incarnation: 'inc-1' });
const eventsOf = async (runId: string) => (await readRunEvents(pool, runId, 'inc-1', { revision: -1, seq: -1 })).map((event) => [event.seq, event.event]);

describe('run events of a worker', () => {
  it('writes the events of runs that come while a write is in flight together, each run in order', async () => {
    const batcher = new RunEventBatcher(pool);
    const writers = Array.from({ length: 20 }, (_, i) => writer(batcher, `batched-${i}`));
    const before = statements;
    for (let n = 0; n < 3; n++) for (const [i, w] of writers.entries()) w.add({ run: i, n });
    await Promise.all(writers.map((w) => w.flush()));
    // The first event alone, the 59 that came while it was written in one more statement.
    expect(statements - before).toBe(2);
    for (const [i] of writers.entries()) {
      expect(await eventsOf(`batched-${i}`)).toEqual([0, 1, 2].map((n) => [n, { run: i, n }]));
    }
  });

  it('writes nothing new for events written before (a replay), and keeps the first', async () => {
    const batcher = new RunEventBatcher(pool);
    const first = writer(batcher, 'replayed');
    first.add({ said: 'first' });
    await first.flush();
    const replay = writer(batcher, 'replayed');
    replay.add({ said: 'again' });
    replay.add({ said: 'next' });
    await replay.flush();
    expect(await eventsOf('replayed')).toEqual([
      [0, { said: 'first' }],
      [1, { said: 'next' }],
    ]);
  });

  it('fails only the run whose event PostgreSQL refuses; the other runs of the batch are written', async () => {
    const batcher = new RunEventBatcher(pool);
    const opening = writer(batcher, 'opening');
    opening.add({ n: 0 }); // in flight while the others queue up behind it
    const good = writer(batcher, 'good');
    const bad = writer(batcher, 'bad');
    good.add({ n: 0 });
    bad.add({ n: 0 });
    bad.add({ text: 'a NUL \u0000 character, which jsonb refuses' });
    good.add({ n: 1 });
    bad.add({ n: 2 });
    await opening.flush();
    await good.flush();
    await expect(bad.flush()).rejects.toThrow(/unsupported Unicode escape sequence|\\u0000/);
    expect(await eventsOf('good')).toEqual([
      [0, { n: 0 }],
      [1, { n: 1 }],
    ]);
    // None of its events after the one refused is written: a follower never sees a gap.
    expect((await eventsOf('bad')).every(([seq]) => (seq as number) < 1)).toBe(true);
  });

  // While no client follows run events, nobody waits for them: a run's rows linger to go together
  // (README, "Commits per step"); a run's flush, before it reports its outcome, writes them at once.
  const row = (runId: string, seq: number): RunEventRow => ({ runId, revision: 0, seq, incarnation: 'inc-1', json: JSON.stringify({ seq }) });
  const source = { failed: false };
  /** A batcher whose first write (made at once: a follower may wait already) found nobody listening. */
  const quietBatcher = async (runId: string, lingerMs: number) => {
    const batcher = new RunEventBatcher(pool, lingerMs);
    await batcher.write(row(runId, 0), source);
    return batcher;
  };

  it('while nobody listens, keeps a run\'s rows until its flush and writes them in one statement', async () => {
    const w = writer(new RunEventBatcher(pool, 600_000), 'lingering');
    w.add({ step: 0 });
    await w.flush();
    const before = statements;
    for (let step = 1; step <= 4; step++) {
      w.add({ step });
      await new Promise((resolve) => setTimeout(resolve, 5)); // the run's next step
    }
    expect(statements - before).toBe(0);
    expect(await eventsOf('lingering')).toEqual([[0, { step: 0 }]]);
    const flushed = statements;
    await w.flush();
    expect(statements - flushed).toBe(1);
    expect(await eventsOf('lingering')).toEqual([0, 1, 2, 3, 4].map((step) => [step, { step }]));
  });

  it('writes lingering rows when their linger ends, without a flush', async () => {
    const batcher = await quietBatcher('linger-ends', 50);
    await batcher.write(row('linger-ends', 1), source);
    expect((await eventsOf('linger-ends')).map(([seq]) => seq)).toEqual([0, 1]);
  });

  it('writes each row at once while a session listens for run events, and lingers again once none does', async () => {
    const batcher = await quietBatcher('followed', 600_000);
    const follower = await pool.connect();
    try {
      await follower.query(`SELECT pg_advisory_lock_shared(${EVENTS_LISTENING_LOCK})`);
      // Lingering when the follower came: written when its linger ends (here: by the flush), and the
      // write learns that someone listens.
      const lingered = batcher.write(row('followed', 1), source);
      batcher.flush();
      await lingered;
      // Now at once, no flush: the linger (ten minutes) would outlast the test.
      await batcher.write(row('followed', 2), source);
      await follower.query(`SELECT pg_advisory_unlock_shared(${EVENTS_LISTENING_LOCK})`);
    } finally {
      follower.release();
    }
    // The first write after the follower left still goes at once, and finds nobody.
    await batcher.write(row('followed', 3), source);
    const before = statements;
    const kept = batcher.write(row('followed', 4), source);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statements - before).toBe(0);
    batcher.flush();
    await kept;
    expect((await eventsOf('followed')).map(([seq]) => seq)).toEqual([0, 1, 2, 3, 4]);
  });
});
