import type pg from 'pg';
import { throughOutage } from './outage.js';
import { recordWorkflowStarts, type WorkflowStart } from './runEvents.js';
import type { Json } from './workflowTypes.js';

interface Entry {
  readonly start: WorkflowStart;
  readonly done: (graph: Json | undefined, error?: unknown) => void;
}

/**
 * The agent-graph records of one worker's workflows (`recordWorkflowStarts`), batched across its
 * runs: the first is written alone, and the workflows that start while a write is in flight, from
 * any run, go together in the next one. Runs claimed together (many queued at once) then cost one
 * statement for all their graph records instead of one each. Each record is on its run's path (no
 * step body runs before it), so nothing waits on purpose: a batch is only what came meanwhile.
 *
 * Through a database outage a write waits and tries again (`throughOutage`); a batch refused for
 * another reason is tried again workflow by workflow, so only the one refused fails.
 */
export class GraphRecorder {
  #queued: Entry[] = [];
  #busy = false;

  constructor(private readonly pool: pg.Pool) {}

  /** The graph recorded for the workflow: `start.graph` when it is the first, else the one recorded before (a replay). */
  record(start: WorkflowStart): Promise<Json> {
    return new Promise((resolve, reject) => {
      this.#queued.push({ start, done: (graph, error) => (error === undefined ? resolve(graph as Json) : reject(error)) });
      if (!this.#busy) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    try {
      while (this.#queued.length > 0) {
        const batch = this.#queued;
        this.#queued = [];
        const answer = await this.#write(batch);
        if (answer.ok || batch.length === 1) {
          batch.forEach((entry, index) => entry.done(answer.ok ? (answer.graphs[index] ?? entry.start.graph) : undefined, answer.ok ? undefined : answer.error));
          continue;
        }
        for (const entry of batch) {
          const own = await this.#write([entry]);
          entry.done(own.ok ? (own.graphs[0] ?? entry.start.graph) : undefined, own.ok ? undefined : own.error);
        }
      }
    } finally {
      this.#busy = false;
    }
  }

  /** One statement for the entries, tried again through an outage: the recorded graphs in the entries' order, or the error it ended with. */
  #write(entries: readonly Entry[]): Promise<{ ok: true; graphs: readonly (Json | undefined)[] } | { ok: false; error: unknown }> {
    return throughOutage(() => recordWorkflowStarts(this.pool, entries.map((entry) => entry.start))).then(
      (graphs) => ({ ok: true as const, graphs }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  }
}
