import { randomUUID } from 'node:crypto';
import type { WorkflowQueue } from '@dbos-inc/dbos-sdk';
// DBOS exports these under `internal/*`: its queue runner's own claim and dispatch, which it only runs on a timer.
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import { globalParams } from '@dbos-inc/dbos-sdk/internal/utils';
import { isConnectionError } from './outage.js';

/** While the worker is full and runs may be waiting, how often it looks (in memory) whether a slot came free. */
const FULL_RECHECK_MS = 2;
/** After a failed claim that was not an outage (two workers contending for a shared limit), try again this soon. */
const CONTENTION_RETRY_MS = 20;

/**
 * Starts this worker's queued runs the moment it has room, instead of at DBOS's next poll of the
 * queue. DBOS's own queue loop polls every `minPollingIntervalMs` (1 s by default): half a second
 * of waiting, on average, before a run's first step. Here the worker claims queued runs when woken:
 * by a notification that a workflow was put on its queue (the `baton_dbos_queued` trigger), by a
 * slot coming free while runs may be waiting, and, as a safety net for notifications missed, every
 * `pollMs`. The claim and the start are DBOS's own (`findAndMarkStartableWorkflows`, then
 * `dispatchDequeuedWorkflows`, as its queue loop does): same locking, same version and concurrency
 * rules, same recovery. DBOS's loop is told not to serve this queue (`listenQueues`), so one claimer
 * per process counts the worker's running runs and `workerConcurrency` holds exactly.
 */
export class RunDispatcher {
  /** Runs may be waiting that this worker has not tried to claim. */
  #pending = true;
  #claiming: Promise<void> | undefined;
  #stopped = false;
  readonly #tick: ReturnType<typeof setInterval>;
  #retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly queue: WorkflowQueue,
    pollMs: number,
    private readonly report: (error: unknown) => void,
  ) {
    this.#tick = setInterval(() => this.wake(), pollMs);
    this.#tick.unref?.();
  }

  /** Runs may be waiting: claim what fits now (or as soon as a slot is free). */
  wake(): void {
    this.#pending = true;
    if (this.#claiming || this.#stopped) return;
    this.#claiming = this.#claimWhileRoom().finally(() => (this.#claiming = undefined));
  }

  /** Stops claiming; resolves once a claim in flight is done (the runs it started go on). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#tick);
    clearTimeout(this.#retry);
    await this.#claiming;
  }

  async #claimWhileRoom(): Promise<void> {
    while (this.#pending && !this.#stopped) {
      const exec = DBOSExecutor.globalInstance;
      if (!exec) return;
      const running = exec.systemDatabase.countRunningWorkflowsForQueue(this.queue.name);
      const room = this.queue.workerConcurrency === undefined ? Number.POSITIVE_INFINITY : this.queue.workerConcurrency - running;
      if (room <= 0) return this.#retryIn(FULL_RECHECK_MS); // still pending: claimed once a run ends
      this.#pending = false;
      const owner = randomUUID();
      let claimed: string[];
      try {
        claimed = await exec.systemDatabase.findAndMarkStartableWorkflows(this.queue, exec.executorID, globalParams.appVersion, undefined, running, 0, owner);
      } catch (error) {
        this.#pending = true;
        // Two workers spending a shared limit at once: soon again. An outage, or anything else: at the next tick.
        if (isContention(error)) this.#retryIn(CONTENTION_RETRY_MS);
        else if (!isConnectionError(error)) this.report(error);
        return;
      }
      // A full batch: more may be waiting behind it.
      if (claimed.length > 0 && claimed.length >= room) this.#pending = true;
      if (claimed.length > 0) await exec.dispatchDequeuedWorkflows(claimed, owner);
    }
  }

  #retryIn(ms: number): void {
    if (this.#retry !== undefined || this.#stopped) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (this.#pending) this.wake();
    }, ms);
  }
}

/** PostgreSQL's serialization failure and lock-not-available: another worker claimed under a shared limit at the same moment. */
function isContention(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '55P03';
}
