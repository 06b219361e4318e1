import type { RunEventBatcher, RunEventSource } from './runEventBatcher.js';

/**
 * The run-event writes of one workflow, off the run's path: `add` numbers the event (its position in
 * the workflow's deterministic sequence, so a replay writes the same keys and nothing new) and hands
 * it to the worker's batcher, which writes the events of all its runs together, at once while a client
 * follows run events, else within its linger. `flush` (before the workflow reports its outcome) resolves
 * once every event added is written, and rejects with the write that failed for good (an outage that
 * outlasted its retries, an event PostgreSQL refused); the events after such a failure are not written.
 */
export class RunEventWriter implements RunEventSource {
  #nextSeq = 0;
  #written: Promise<void> = Promise.resolve();
  #failure: unknown;

  constructor(
    private readonly batcher: RunEventBatcher,
    private readonly run: { readonly runId: string; readonly revision: number; readonly incarnation: string },
  ) {}

  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** `event` is serialized here, once (its `toJSON`s called, undefined fields left out), as JSON.stringify does. */
  add(event: unknown): void {
    if (this.failed) return;
    const row = { runId: this.run.runId, revision: this.run.revision, incarnation: this.run.incarnation, seq: this.#nextSeq++, json: JSON.stringify(event) ?? 'null' };
    // The batcher commits rows in order: once the last one added is settled, so is every earlier one.
    this.#written = this.batcher.write(row, this).catch((error: unknown) => {
      this.#failure ??= error;
    });
  }

  /** Writes this workflow's events now (the batcher's linger ends for every queued row) and waits for them. */
  async flush(): Promise<void> {
    this.batcher.flush();
    await this.#written;
    if (this.#failure !== undefined) throw this.#failure;
  }
}
