import type pg from 'pg';
import { writeRunEvents } from './runEvents.js';
import type { Json } from './workflowTypes.js';

/**
 * The run-event writes of one workflow, off the run's path and batched: `add` returns at once; the
 * first event is written alone, and the events that come while a write is in flight go together in
 * the next one (one statement, one commit, one notification for the lot). With a fast model a
 * turn's items come in a burst, so a run costs a few commits for its events instead of one each.
 * `flush` resolves once every event added is written (and rejects with a write that failed for
 * good, after an outage outlasted its retries).
 */
export class RunEventWriter {
  #queued: Json[] = [];
  #nextSeq = 0;
  #writing: Promise<void> = Promise.resolve();
  #busy = false;
  #failure: unknown;

  constructor(
    private readonly pool: pg.Pool,
    private readonly run: { readonly runId: string; readonly revision: number; readonly incarnation: string },
  ) {}

  add(event: Json): void {
    this.#queued.push(event);
    if (!this.#busy) this.#writing = this.#drain();
  }

  async flush(): Promise<void> {
    await this.#writing;
    if (this.#failure !== undefined) throw this.#failure;
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    try {
      while (this.#queued.length > 0 && this.#failure === undefined) {
        const batch = this.#queued;
        this.#queued = [];
        const seq = this.#nextSeq;
        this.#nextSeq += batch.length;
        await writeRunEvents(this.pool, { runId: this.run.runId, revision: this.run.revision, seq }, batch, this.run.incarnation);
      }
    } catch (error) {
      this.#failure = error;
    } finally {
      this.#busy = false;
    }
  }
}
