import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { z } from 'zod';
import { Agent, tool } from '@baton/core';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { AgentGraphChanged, GraphGate } from '../src/internal/graphGate.js';
import { createEventsTable } from '../src/internal/runEvents.js';

// The workflow's agent-graph check (README, "Bad requests" and "Latency and throughput"): recorded
// in one statement that overlaps the run's start, yet no step body runs before it has passed, and a
// graph that lost a tool the run started with stops every step.
let postgres: PostgresServer;
let pool: pg.Pool;

beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.connectionString, max: 4 });
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

const lookup = tool({ name: 'lookup', description: 'Looks up.', parameters: z.object({ q: z.string() }), execute: () => 'found' });
const refund = tool({ name: 'refund', description: 'Refunds.', parameters: z.object({ id: z.string() }), execute: () => 'refunded' });
const withBoth = () => new Agent({ name: 'Support', tools: [lookup, refund] });
const withLookupOnly = () => new Agent({ name: 'Support', tools: [lookup] });

describe('GraphGate', () => {
  it('a step waits until the graph is recorded, then runs; the recorded graph is the first one', async () => {
    const run = { runId: 'gate-1', revision: 0, incarnation: 'i1' };
    // A pool whose first statement is held back: the step must not pass before it answers.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowPool = { query: async (...args: unknown[]) => (await held, (pool.query as (...a: unknown[]) => unknown)(...args)) } as unknown as pg.Pool;
    const gate = new GraphGate(slowPool, run, withBoth());
    let passed = false;
    const step = gate.beforeStep().then(() => (passed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(passed).toBe(false);
    release();
    await step;
    expect(passed).toBe(true);
    expect(await gate.loss()).toBeUndefined();
    const { rows } = await pool.query(`SELECT graph FROM baton_dbos.run_graphs WHERE run_id = $1`, [run.runId]);
    expect(rows).toEqual([{ graph: { Support: { tools: ['lookup', 'refund'], handoffs: [] } } }]);
  });

  it('a replay on a graph that lost a tool: every step is refused and the loss names the tool', async () => {
    const run = { runId: 'gate-2', revision: 0, incarnation: 'i1' };
    expect(await new GraphGate(pool, run, withBoth()).loss()).toBeUndefined();
    const replay = new GraphGate(pool, run, withLookupOnly());
    await expect(replay.beforeStep()).rejects.toBeInstanceOf(AgentGraphChanged);
    await expect(replay.beforeStep()).rejects.toThrow('Agent "Support" has no tool "refund" any more');
    const loss = await replay.loss();
    expect(loss?.message).toContain('gate-2');
    expect(loss?.report).toMatchObject({ ok: false, issues: [{ kind: 'missing_tool', agent: 'Support', name: 'refund' }] });
  });

  it('a graph that only gained a tool fits; another incarnation of the run id starts afresh', async () => {
    const run = { runId: 'gate-3', revision: 0, incarnation: 'i1' };
    await new GraphGate(pool, run, withLookupOnly()).beforeStep();
    await new GraphGate(pool, run, withBoth()).beforeStep();
    // The run deleted and its id used again: the old incarnation's graph is cleared, the new one recorded.
    await new GraphGate(pool, { ...run, incarnation: 'i2' }, withBoth()).beforeStep();
    expect(await new GraphGate(pool, { ...run, incarnation: 'i2' }, withLookupOnly()).loss()).toMatchObject({ report: { ok: false } });
    const { rows } = await pool.query(`SELECT incarnation FROM baton_dbos.run_graphs WHERE run_id = $1`, [run.runId]);
    expect(rows).toEqual([{ incarnation: 'i2' }]);
  });
});
