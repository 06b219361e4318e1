import type pg from 'pg';
import { isConnectionError, throughOutage } from './outage.js';
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

/** How long rows may wait to be written together while no session listens for run events. */
export const DEFAULT_LINGER_MS = 100;

/**
 * The run-event writes of one worker, batched across its runs: one write is in flight at a time, and
 * the rows that come meanwhile, from any run, go together in the next one (one statement, one
 * commit, one notification per run). One write at a time commits rows in the order they came (a
 * reader never sees a later event of a run before an earlier one).
 *
 * When should the next write go? Every write asks PostgreSQL whether a session listens for run
 * events (`insertRunEvents`). While one does, rows go at once, as they come: someone follows. While
 * none does, nobody waits for them, so rows linger up to `lingerMs` to go with the next ones: a run
 * of fast steps writes its events in one or two statements instead of one a step. A run that ends or
 * pauses calls `flush()`, so its rows are committed before its outcome is (a follower that sees the
 * outcome finds every event). A follower that starts listening while rows linger has read what was
 * stored; the lingering rows reach it, notified, at most `lingerMs` later. A crash loses nothing: the
 * replay emits the same rows again under the same keys. The first write of a worker goes at once (a
 * follower may be waiting already).
 *
 * Through a database outage a write waits and tries again (`throughOutage`). A write refused for
 * another reason (an event PostgreSQL does not take) is tried again run by run, so only the run whose
 * rows are refused fails: its promise rejects, and its rows still queued are not written.
 */
export class RunEventBatcher {
  #queued: Entry[] = [];
  #busy = false;
  /** Whether the last write found a session listening; until the first write, assumed. */
  #listening = true;
  /** Rows are due now: their linger ended, or a run flushed. */
  #due = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly lingerMs: number = DEFAULT_LINGER_MS,
  ) {}

  /** Resolves once the row is committed; rejects with the error that made its write fail for good. */
  write(row: RunEventRow, source: RunEventSource): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queued.push({ row, source, done: (error) => (error === undefined ? resolve() : reject(error)) });
      this.#next();
    });
  }

  /** Writes the queued rows without lingering (a run is about to report its outcome). */
  flush(): void {
    this.#due = true;
    this.#next();
  }

  /** Starts the next write now, or once the rows' linger ends, unless one is in flight (it calls this when done). */
  #next(): void {
    if (this.#busy) return;
    if (this.#queued.length === 0) {
      this.#due = false; // a flush with nothing queued (its rows were in the write just done) hurries no later row
      return;
    }
    if (!this.#listening && !this.#due) {
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        this.flush();
      }, this.lingerMs);
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    this.#due = false;
    const batch = this.#queued;
    this.#queued = [];
    try {
      await this.#write(batch.filter((entry) => !entry.source.failed));
      for (const entry of batch) if (entry.source.failed) entry.done(new Error(`An earlier event of run ${entry.row.runId} could not be written; later ones are not.`));
    } finally {
      this.#busy = false;
      this.#next();
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
    return throughOutage(() => insertRunEvents(this.pool, rows)).then(
      ({ listening }) => {
        this.#listening = listening;
        return undefined;
      },
      (error: unknown) => {
        // Not knowing whether anyone listens, the next rows go at once.
        this.#listening = true;
        return error;
      },
    );
  }
}
