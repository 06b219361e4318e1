import { randomUUID } from 'node:crypto';
import type { WorkflowQueue } from '@dbos-inc/dbos-sdk';
// DBOS exports these under `internal/*`: its queue runner's own claim and dispatch, which it only runs on a timer.
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import { SystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';
import { globalParams } from '@dbos-inc/dbos-sdk/internal/utils';
import { isConnectionError } from './outage.js';
import { claimQueued, claimsInOneStatement } from './queueClaim.js';

/**
 * When a run's workflow returns, DBOS still records its output before the slot counts as free:
 * look again after these delays (in memory; a claim only once there is room).
 */
const SLOT_FREE_RECHECKS_MS = [1, 2, 4, 8, 16, 32, 64];
/** After a failed claim that was not an outage (two workers contending for a shared limit), try again this soon. */
const CONTENTION_RETRY_MS = 20;

/**
 * Starts this worker's queued runs the moment it has room, instead of at DBOS's next poll of the
 * queue. DBOS's own queue loop polls every `minPollingIntervalMs` (1 s by default): half a second
 * of waiting, on average, before a run's first step. Here the worker claims queued runs when woken:
 * by a notification that a workflow was put on its queue (the `baton_dbos_queued` trigger), by one
 * of its runs ending while runs may be waiting, and, as a safety net for notifications missed, every
 * `pollMs`. The claim and the start are DBOS's (`findAndMarkStartableWorkflows`, then
 * `dispatchDequeuedWorkflows`, as its queue loop does; where the queue has no limit shared with
 * other workers, the claim is one statement of the same rules, `queueClaim.ts`): same locking, same
 * version and concurrency rules, same recovery. DBOS's loop is told not to serve this queue (`listenQueues`), so one claimer
 * per process counts the worker's running runs and `workerConcurrency` holds exactly.
 */
export class RunDispatcher {
  /**
   * Whether the installed DBOS has the claim and dispatch this uses (they are not its public API):
   * without them the worker leaves the runs' queue to DBOS's own loop, which polls it.
   */
  static supported(): boolean {
    return (
      typeof DBOSExecutor?.prototype?.dispatchDequeuedWorkflows === 'function' &&
      typeof SystemDatabase?.prototype?.findAndMarkStartableWorkflows === 'function' &&
      typeof SystemDatabase?.prototype?.countRunningWorkflowsForQueue === 'function' &&
      typeof globalParams?.appVersion === 'string'
    );
  }

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

  /** A run of this worker returned: once DBOS has recorded its end, its slot is free for a run that may be waiting. */
  runEnded(): void {
    if (!this.#pending || this.#stopped) return;
    let attempt = 0;
    const look = () => {
      if (!this.#pending || this.#stopped) return;
      if (this.#room() > 0) return this.wake();
      const delay = SLOT_FREE_RECHECKS_MS[attempt++];
      if (delay !== undefined) setTimeout(look, delay).unref?.();
    };
    look();
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
      const room = this.#room();
      if (room <= 0) return; // still pending: claimed when one of the running runs ends (runEnded)
      this.#pending = false;
      const owner = randomUUID();
      let claimed: string[];
      try {
        // One statement where the queue has no limit shared with other workers (`queueClaim.ts`); else DBOS's transaction.
        claimed = claimsInOneStatement(this.queue, exec.systemDatabase)
          ? await claimQueued(exec.systemDatabase, this.queue, exec.executorID, globalParams.appVersion, room, owner)
          : await exec.systemDatabase.findAndMarkStartableWorkflows(this.queue, exec.executorID, globalParams.appVersion, undefined, running, 0, owner);
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

  /** Free slots: `workerConcurrency` less the runs of this queue DBOS counts as running in this process. */
  #room(): number {
    const exec = DBOSExecutor.globalInstance;
    if (!exec) return 0;
    const running = exec.systemDatabase.countRunningWorkflowsForQueue(this.queue.name);
    return this.queue.workerConcurrency === undefined ? Number.POSITIVE_INFINITY : this.queue.workerConcurrency - running;
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
