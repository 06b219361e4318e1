import { Agent, RunState, run, tool } from '@baton/core';
import { inspectRunState } from '@baton/hitl-state';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';

/** Sizes of the states read, in kB (10 kB to 10 MB). */
export const STATE_READING_SIZES_KB = [10, 100, 1_000, 10_000] as const;

export interface StateReadingRow {
  readonly kb: number;
  readonly fromStringMs: number;
  readonly inspectMs: number;
  /** Microseconds per kB of `RunState.fromString`. */
  readonly fromStringMicrosPerKb: number;
  readonly inspectMicrosPerKb: number;
}

/**
 * Reading a stored state must be linear in its size (the state-reader hardening of the core
 * issue): a paused run whose context holds a document of the given size, read with
 * `RunState.fromString` and `inspectRunState`; the best of a few reads of each. Baton only (each
 * SDK reads its own format), so the figure to watch is the time per kB staying flat as the state
 * grows 1,000 times.
 */
export async function measureStateReading(): Promise<StateReadingRow[]> {
  const pay = tool({ name: 'pay', description: 'pay', parameters: z.object({ to: z.string() }), needsApproval: true, execute: ({ to }) => `paid ${to}` });
  const rows: StateReadingRow[] = [];
  for (const kb of STATE_READING_SIZES_KB) {
    const model = new ScriptedModel([[functionCall('pay', { to: 'bob' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay bob', { context: { document: documentOf(kb) } });
    const text = paused.state.toString();
    const fromStringMs = await bestOf(3, () => RunState.fromString(agent, text));
    const inspectMs = await bestOf(3, () => inspectRunState(text));
    const actualKb = text.length / 1024;
    rows.push({ kb, fromStringMs, inspectMs, fromStringMicrosPerKb: (fromStringMs * 1000) / actualKb, inspectMicrosPerKb: (inspectMs * 1000) / actualKb });
  }
  return rows;
}

/** A context document of about `kb` kB: records with nested fields, and a few `__proto__`-free odd keys. */
function documentOf(kb: number): unknown[] {
  const records: unknown[] = [];
  for (let size = 0; size < kb * 1024; size += 100) records.push({ id: records.length, name: `customer ${records.length}`, tags: ['a', 'b'], address: { city: 'Oslo', zip: '0150' } });
  return records;
}

async function bestOf(times: number, read: () => unknown): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await read();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

export function formatStateReading(rows: readonly StateReadingRow[]): string {
  const lines = rows.map(
    (row) =>
      `  ${String(row.kb).padStart(6)} kB   fromString ${row.fromStringMs.toFixed(1).padStart(8)} ms (${row.fromStringMicrosPerKb.toFixed(1)} µs/kB)   ` +
      `inspectRunState ${row.inspectMs.toFixed(1).padStart(8)} ms (${row.inspectMicrosPerKb.toFixed(1)} µs/kB)`,
  );
  return [`Reading stored states (Baton; best of 3 reads; the time per kB should stay flat):`, ...lines].join('\n');
}
