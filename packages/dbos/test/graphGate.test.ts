import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { z } from 'zod';
import { Agent, tool } from '@baton/core';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { AgentGraphChanged, GraphGate } from '../src/internal/graphGate.js';
import { GraphRecorder } from '../src/internal/graphRecorder.js';
import { createEventsTable, insertRunEvents, readRunEvents, recordWorkflowStarts } from '../src/internal/runEvents.js';

// The workflow's agent-graph check (README, "Bad requests" and "Latency and throughput"): recorded
// in one statement that overlaps the run's start, yet no step body runs before it has passed, and a
// graph that lost a tool the run started with stops every step.
let postgres: PostgresServer;
let pool: pg.Pool;
let recorder: GraphRecorder;

beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.connectionString, max: 4 });
  recorder = new GraphRecorder(pool);
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
    const gate = new GraphGate(new GraphRecorder(slowPool), run, withBoth());
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
    expect(await new GraphGate(recorder, run, withBoth()).loss()).toBeUndefined();
    const replay = new GraphGate(recorder, run, withLookupOnly());
    await expect(replay.beforeStep()).rejects.toBeInstanceOf(AgentGraphChanged);
    await expect(replay.beforeStep()).rejects.toThrow('Agent "Support" has no tool "refund" any more');
    const loss = await replay.loss();
    expect(loss?.message).toContain('gate-2');
    expect(loss?.report).toMatchObject({ ok: false, issues: [{ kind: 'missing_tool', agent: 'Support', name: 'refund' }] });
  });

  it('a graph that only gained a tool fits; another incarnation of the run id starts afresh', async () => {
    const run = { runId: 'gate-3', revision: 0, incarnation: 'i1' };
    await new GraphGate(recorder, run, withLookupOnly()).beforeStep();
    await new GraphGate(recorder, run, withBoth()).beforeStep();
    // The run deleted and its id used again: the old incarnation's graph is cleared, the new one recorded.
    await new GraphGate(recorder, { ...run, incarnation: 'i2' }, withBoth()).beforeStep();
    expect(await new GraphGate(recorder, { ...run, incarnation: 'i2' }, withLookupOnly()).loss()).toMatchObject({ report: { ok: false } });
    const { rows } = await pool.query(`SELECT incarnation FROM baton_dbos.run_graphs WHERE run_id = $1`, [run.runId]);
    expect(rows).toEqual([{ incarnation: 'i2' }]);
  });

  it('workflows that start while a record is in flight are recorded together, each answered its own graph', async () => {
    let statements = 0;
    const counting = { query: (...args: unknown[]) => (statements++, (pool.query as (...a: unknown[]) => unknown)(...args)) } as unknown as pg.Pool;
    const batched = new GraphRecorder(counting);
    const graph = (tools: string[]) => ({ Support: { tools, handoffs: [] } });
    // A run recorded before (a replay comes now), and a deleted run whose id is used again.
    await batched.record({ runId: 'batch-replayed', revision: 0, incarnation: 'i1', graph: graph(['lookup', 'refund']) });
    await insertRunEvents(pool, [{ runId: 'batch-reused', revision: 0, seq: 0, incarnation: 'old', json: '{"old":true}' }]);
    await batched.record({ runId: 'batch-reused', revision: 0, incarnation: 'old', graph: graph(['old']) });
    const before = statements;
    const answers = await Promise.all([
      batched.record({ runId: 'batch-first', revision: 0, incarnation: 'i1', graph: graph(['a']) }), // alone: nothing in flight
      batched.record({ runId: 'batch-replayed', revision: 0, incarnation: 'i1', graph: graph(['lookup']) }),
      batched.record({ runId: 'batch-reused', revision: 0, incarnation: 'new', graph: graph(['new']) }),
      ...[1, 2, 3].map((n) => batched.record({ runId: `batch-${n}`, revision: 0, incarnation: 'i1', graph: graph([`t${n}`]) })),
    ]);
    expect(statements - before).toBe(2);
    expect(answers).toEqual([graph(['a']), graph(['lookup', 'refund']), graph(['new']), graph(['t1']), graph(['t2']), graph(['t3'])]);
    const { rows } = await pool.query(`SELECT incarnation, graph FROM baton_dbos.run_graphs WHERE run_id = 'batch-reused'`);
    expect(rows).toEqual([{ incarnation: 'new', graph: graph(['new']) }]);
    expect(await readRunEvents(pool, 'batch-reused', 'old', { revision: -1, seq: -1 })).toEqual([]);
  });

  it("a workflow's first statement finds its run's events and graphs by key, however many other runs wrote", async () => {
    // Twenty thousand events of two thousand other runs: a statement that scanned the tables whole
    // would cost every workflow start in proportion to everything ever written.
    await pool.query(`INSERT INTO baton_dbos.run_events (run_id, revision, seq, event, incarnation)
      SELECT 'filler-' || (n / 10), 0, n % 10, jsonb_build_object('pad', repeat('x', 400)), 'old' FROM generate_series(0, 19999) AS n`);
    await pool.query(`INSERT INTO baton_dbos.run_graphs (run_id, revision, incarnation, graph) SELECT 'filler-' || n, 0, 'old', '{}' FROM generate_series(0, 1999) AS n`);
    await pool.query('ANALYZE baton_dbos.run_events, baton_dbos.run_graphs');
    // The statement's plan, asked for with the same parameters just before it runs (EXPLAIN alone executes nothing).
    const plans: string[] = [];
    const explaining = {
      query: async (text: string, values: unknown[]) => {
        const { rows } = await pool.query(`EXPLAIN ${text}`, values);
        plans.push(rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n'));
        return pool.query(text, values);
      },
    } as unknown as pg.Pool;
    const graphs = await recordWorkflowStarts(explaining, [
      { runId: 'filler-7', revision: 0, incarnation: 'new', graph: { Support: { tools: [], handoffs: [] } } },
      { runId: 'keyed-1', revision: 0, incarnation: 'i1', graph: { Support: { tools: ['lookup'], handoffs: [] } } },
    ]);
    expect(plans).toHaveLength(1);
    expect(plans[0]).not.toMatch(/Seq Scan on run_(events|graphs)/);
    // And it still does its work: the reused id's old events and graph are gone, each start answered its graph.
    expect(graphs).toEqual([{ Support: { tools: [], handoffs: [] } }, { Support: { tools: ['lookup'], handoffs: [] } }]);
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM baton_dbos.run_events WHERE run_id = 'filler-7'`);
    expect(rows[0].n).toBe(0);
    const { rows: others } = await pool.query(`SELECT count(*)::int AS n FROM baton_dbos.run_events WHERE run_id = 'filler-8'`);
    expect(others[0].n).toBe(10);
  });
});
