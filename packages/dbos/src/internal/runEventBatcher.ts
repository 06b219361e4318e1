import * as Effect from 'effect/Effect';
import type pg from 'pg';
import { isConnectionError, OUTAGE_RETRY } from './outage.js';
import { insertRunEvents, type RunEventRow } from './runEvents.js';

/** Who wrote a row: one workflow of a run. Its rows are no longer written once it `failed`. */
export interface RunEventSource {
  readonly failed: boolean;
}

interface Entry {
  readonly row: RunEventRow;
  readonly source: RunEventSource;
  readonly done: (error?: unknown) => void;
}

/**
 * The run-event writes of one worker, batched across its runs: the first row is written alone, and
 * the rows that come while a write is in flight, from any run, go together in the next one (one
 * statement, one commit, one notification per run). With many runs at once, the events of a burst
 * of steps cost one commit instead of one per run. One write is in flight at a time, so rows commit
 * in the order they came (a reader never sees a later event of a run before an earlier one).
 *
 * Through a database outage a write waits and tries again (`OUTAGE_RETRY`). A write refused for
 * another reason (an event PostgreSQL does not take) is tried again run by run, so only the run whose
 * rows are refused fails: its promise rejects, and its rows still queued are not written.
 */
export class RunEventBatcher {
  #queued: Entry[] = [];
  #busy = false;

  constructor(private readonly pool: pg.Pool) {}

  /** Resolves once the row is committed; rejects with the error that made its write fail for good. */
  write(row: RunEventRow, source: RunEventSource): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queued.push({ row, source, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.#busy) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    try {
      while (this.#queued.length > 0) {
        const batch = this.#queued;
        this.#queued = [];
        await this.#write(batch.filter((entry) => !entry.source.failed));
        for (const entry of batch) if (entry.source.failed) entry.done(new Error(`An earlier event of run ${entry.row.runId} could not be written; later ones are not.`));
      }
    } finally {
      this.#busy = false;
    }
  }

  async #write(batch: readonly Entry[]): Promise<void> {
    if (batch.length === 0) return;
    const error = await this.#insert(batch);
    const bySource = new Map<RunEventSource, Entry[]>();
    for (const entry of batch) bySource.set(entry.source, [...(bySource.get(entry.source) ?? []), entry]);
    if (error === undefined || isConnectionError(error) || bySource.size === 1) {
      for (const entry of batch) entry.done(error);
      return;
    }
    for (const entries of bySource.values()) {
      const own = await this.#insert(entries);
      for (const entry of entries) entry.done(own);
    }
  }

  /** One statement for the entries' rows, tried again through an outage; the error it ended with, if any. */
  #insert(entries: readonly Entry[]): Promise<unknown> {
    const rows = entries.map((entry) => entry.row);
    return Effect.runPromise(
      Effect.tryPromise({ try: () => insertRunEvents(this.pool, rows), catch: (error) => error }).pipe(
        Effect.retry({ schedule: OUTAGE_RETRY, while: isConnectionError }),
        Effect.as(undefined as unknown),
        Effect.catch((error) => Effect.succeed(error)),
      ),
    );
  }
}
