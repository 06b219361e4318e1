import { setMaxListeners } from 'node:events';
import { DBOSClient, Error as DBOSErrors, type WorkflowStatus } from '@dbos-inc/dbos-sdk';
import type { AgentInputItem } from '@baton/types';
import pg from 'pg';
import { DurableRunError } from './durableRunError.js';
import { throughOutage } from './internal/outage.js';
import { clientLogger, systemDatabaseUrl } from './internal/systemDatabase.js';
import { FreshRuns } from './internal/freshRuns.js';
import { NotificationListener } from './internal/notificationListener.js';
import { deleteRunEvents, EVENTS_CHANNEL, EVENTS_LISTENING_LOCK, readRunEvents } from './internal/runEvents.js';
import { RUN_ENDED_CHANNEL } from './internal/statusNotifications.js';
import { latestRunWorkflow, runIncarnation, runWorkflowAt, runWorkflows, type RunWorkflow } from './internal/runLookup.js';
import { Wakeup } from './internal/wakeup.js';
import { checkRunId, RUN_WORKFLOW_NAME, runWorkflowId } from './internal/workflowIds.js';
import type { ApprovalDecision, Json, PendingApproval, RunWorkflowInput, RunWorkflowOutput } from './internal/workflowTypes.js';

export const DEFAULT_APP_NAME = 'baton';
export const DEFAULT_QUEUE_NAME = 'baton-runs';
export { RUN_WORKFLOW_NAME };
/** A follower reads again this often even without a notification (a safety net; notifications wake it at once). */
const FOLLOW_POLL_MS = 1000;
/** `result()` reads the status this often even without a notification (the same safety net). */
const RESULT_POLL_MS = 1000;
/** `close()` waits this long at most for the connections to end. */
const CLOSE_TIMEOUT_MS = 5000;

export interface DurableRunsClientOptions {
  /** The PostgreSQL database DBOS keeps its state in (the workers' `databaseUrl`). */
  readonly databaseUrl: string;
  /** The DBOS application name the workers use (default `'baton'`). */
  readonly appName?: string;
  /** The queue the workers serve (default `'baton-runs'`). */
  readonly queueName?: string;
  /** How long `create` waits for the database before giving up with `unavailable` (default 10 s). */
  readonly connectTimeoutMs?: number;
}

export type DurableRunState = 'queued' | 'running' | 'paused' | 'completed' | 'failed';

export interface DurableRunStatus {
  readonly runId: string;
  /** 0 until the first resume, then one more per resume. */
  readonly revision: number;
  readonly state: DurableRunState;
  /** The application version that runs (or ran) it: only workers of that version continue it. */
  readonly applicationVersion: string | undefined;
  /** The worker that holds it while it runs. */
  readonly executorId: string | undefined;
  /** Paused: the calls waiting for a decision. */
  readonly pending: readonly PendingApproval[];
  readonly finalOutput?: Json;
  readonly lastAgent?: string;
  readonly error?: { readonly name: string; readonly message: string; readonly report?: Json };
}

export interface StartRunOptions {
  /**
   * The run's id (default: a new UUID); starting the same id twice starts it once. 1 to 200 ASCII
   * letters, digits and `- _ . @ + = ~`, starting with a letter or digit (every client method
   * refuses anything else with `invalid_run_id`).
   */
  readonly runId?: string;
  /** The run context's value (plain JSON). */
  readonly context?: Json;
  readonly maxTurns?: number;
  /** Its pending approvals expire this long after it pauses; then it continues with them rejected (default: the worker's `approvalTtlMs`). */
  readonly approvalTtlMs?: number;
  /** Only workers of this version run it (default: the newest version a worker registered). */
  readonly applicationVersion?: string;
}

export interface DecisionMetadata {
  readonly decidedBy?: string;
  readonly reason?: string;
  /** Default: now. */
  readonly decidedAt?: Date | string;
}

export interface DecideOptions {
  /**
   * The application version that continues the run (default: the one that paused it). A paused run
   * moves to a new version this way, on purpose: check its state against the new agent graph first
   * (`checkResumable` from `@baton/hitl-state`); a run that does not fit ends `failed` with the report.
   */
  readonly applicationVersion?: string;
}

export interface RunEvent {
  readonly runId: string;
  readonly revision: number;
  readonly seq: number;
  readonly event: Json;
}

/**
 * Durable runs from any process (an approval UI, a CLI, a web server): start a run, read its status,
 * decide its pending approvals, follow its events. Needs only the database; the agents live in the
 * workers. A decision starts the run's next workflow, keyed `{runId}:resume:{revision}`, on the
 * version that paused it: two processes deciding at once start it once, and the second learns
 * whether its decision was the one taken.
 */
export class DurableRunsClient {
  #closed = false;
  /** Application versions known to be registered by a worker (a version stays registered). */
  readonly #versions = new Set<string>();
  /** Aborted by `close()`: every follower (and its retries through an outage) listens to it, so no listener cap. */
  readonly #closing = unlimitedListeners(new AbortController());
  /** Runs this client just put on the queue: their `result()` need not read before the first notification. */
  readonly #fresh: FreshRuns;

  private constructor(
    private readonly dbos: DBOSClient,
    private readonly pool: pg.Pool,
    private readonly queueName: string,
    private readonly listener: NotificationListener,
  ) {
    this.#fresh = new FreshRuns(listener);
  }

  static async create(options: DurableRunsClientOptions): Promise<DurableRunsClient> {
    if (typeof options?.databaseUrl !== 'string' || options.databaseUrl === '') {
      throw new DurableRunError('invalid_options', 'DurableRunsClient: `databaseUrl` (the PostgreSQL URL the workers use) is required.');
    }
    // DBOS's client retries an unreachable database without end; a CLI or a web handler would hang.
    await checkReachable(options.databaseUrl, options.connectTimeoutMs ?? 10_000);
    const dbos = await DBOSClient.create({ systemDatabaseUrl: systemDatabaseUrl(options.databaseUrl), applicationName: options.appName ?? DEFAULT_APP_NAME, logger: clientLogger });
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
    pool.on('error', () => {}); // an idle connection lost in an outage is dropped; queries report their own errors
    return new DurableRunsClient(dbos, pool, options.queueName ?? DEFAULT_QUEUE_NAME, new NotificationListener(options.databaseUrl, [EVENTS_CHANNEL, RUN_ENDED_CHANNEL], { [EVENTS_CHANNEL]: EVENTS_LISTENING_LOCK }));
  }

  /** Puts a run of the agent registered as `agent` on the queue; a worker picks it up. Returns the run id. */
  async startRun(agent: string, input: string | AgentInputItem[], options: StartRunOptions = {}): Promise<string> {
    const runId = checkRunId(options.runId ?? globalThis.crypto.randomUUID());
    if (options.applicationVersion !== undefined) await this.#checkVersion(options.applicationVersion, runId);
    const workflowInput: RunWorkflowInput = {
      runId,
      agent,
      revision: 0,
      start: { kind: 'input', input },
      incarnation: globalThis.crypto.randomUUID(),
      ...(options.context === undefined ? {} : { context: options.context }),
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      ...(options.approvalTtlMs === undefined ? {} : { approvalTtlMs: checkTtl(options.approvalTtlMs) }),
    };
    const enqueue = { queueName: this.queueName, workflowName: RUN_WORKFLOW_NAME, workflowID: runId, ...(options.applicationVersion === undefined ? {} : { appVersion: options.applicationVersion }) };
    // Watched from before the enqueue commits, so its end cannot be notified unseen; the enqueue then
    // refuses an id in use (nothing written), so only a run this call created is taken as fresh.
    if (!this.#fresh.watch(runId)) {
      await this.dbos.enqueue(enqueue, workflowInput);
      return runId;
    }
    try {
      await this.dbos.enqueue({ ...enqueue, workflowIDReusePolicy: 'reject' }, workflowInput);
    } catch (error) {
      this.#fresh.forget(runId);
      if (!DBOSErrors.isWorkflowIDInUseError(error)) throw error;
      // Started before: the same id starts it once (or conflicts with another workflow of that id), as always.
      await this.dbos.enqueue(enqueue, workflowInput);
    }
    return runId;
  }

  /** Where the run is now: its latest workflow's status and, once it ended, its outcome. */
  async status(runId: string): Promise<DurableRunStatus> {
    checkRunId(runId);
    return this.#statusOf(runId, await latestRunWorkflow(this.dbos, runId, { input: false }));
  }

  #statusOf(runId: string, latest: RunWorkflow | undefined): DurableRunStatus {
    if (!latest) throw new DurableRunError('unknown_run', `No durable run has the id ${JSON.stringify(runId)}.`, runId);
    return statusOf(runId, latest.revision, latest.workflow);
  }

  /**
   * Waits until the run pauses, completes or fails. Woken by a notification the moment the run's
   * workflow ends, so the result comes back within a round trip of it; `pollMs` (default 1000) is
   * only the safety net, how often it reads the status anyway (notifications unavailable, as behind
   * a transaction-pooling PgBouncer).
   */
  async result(runId: string, options: { timeoutMs?: number; pollMs?: number } = {}): Promise<DurableRunStatus> {
    checkRunId(runId);
    const timeoutMs = options.timeoutMs ?? 300_000;
    const deadline = Date.now() + timeoutMs;
    const bell = new Wakeup();
    const unsubscribe = this.listener.subscribe(RUN_ENDED_CHANNEL, runId, () => bell.ring());
    try {
      // The first read finds the run's latest workflow; while that one is queued or running it stays
      // the latest, so the reads after a wake-up read just it. A run this client just started and
      // whose end was not notified yet is queued or running at revision 0: no read until it is.
      let revision: number | undefined;
      if (this.#fresh.take(runId)) {
        revision = 0;
        await bell.wait(Math.min(options.pollMs ?? RESULT_POLL_MS, timeoutMs));
      }
      for (;;) {
        bell.reset();
        const status = revision === undefined ? await this.status(runId) : this.#statusOf(runId, await runWorkflowAt(this.dbos, runId, revision, { input: false }));
        revision = status.revision;
        if (status.state !== 'queued' && status.state !== 'running') return status;
        const left = deadline - Date.now();
        if (left <= 0) {
          const waiting = status.state === 'queued' ? ` It waits on the queue for a worker of version ${status.applicationVersion ?? '(any)'} with room.` : '';
          throw new DurableRunError('timed_out', `Run ${runId} is still ${status.state} after ${timeoutMs} ms.${waiting}`, runId);
        }
        await bell.wait(Math.min(options.pollMs ?? RESULT_POLL_MS, left));
      }
    } finally {
      unsubscribe();
    }
  }

  approve(runId: string, callId: string, meta: DecisionMetadata = {}): Promise<void> {
    return this.decide(runId, [{ callId, approved: true, ...meta }]);
  }

  reject(runId: string, callId: string, meta: DecisionMetadata & { message?: string } = {}): Promise<void> {
    return this.decide(runId, [{ callId, approved: false, ...meta }]);
  }

  /**
   * Decides pending calls of a paused run and continues it (calls left undecided pause it again).
   * Refused with a `DurableRunError`: an unknown run or call, a run that is not paused, an approval
   * request that expired, or a decision for this pause that another process took first.
   */
  async decide(
    runId: string,
    decisions: ReadonlyArray<{ callId: string; approved: boolean; message?: string } & DecisionMetadata>,
    options: DecideOptions = {},
  ): Promise<void> {
    checkRunId(runId);
    checkDecisions(runId, decisions);
    if (options.applicationVersion !== undefined) await this.#checkVersion(options.applicationVersion, runId);
    const latest = await latestRunWorkflow(this.dbos, runId, { input: true });
    if (!latest) throw new DurableRunError('unknown_run', `No durable run has the id ${JSON.stringify(runId)}.`, runId);
    const status = statusOf(runId, latest.revision, latest.workflow);
    if (status.state !== 'paused') {
      // A racing approver continued it a moment ago: say whether this decision was the one taken.
      const taken = (latest.workflow.input?.[0] as RunWorkflowInput | undefined)?.start;
      const inFlight = status.state === 'queued' || status.state === 'running';
      if (inFlight && taken?.kind === 'resume' && decisions.every((decision) => taken.decisions.some((made) => made.callId === decision.callId))) {
        return reportTaken(runId, taken.decisions, decisions);
      }
      throw new DurableRunError('not_paused', `Run ${runId} is ${status.state}, not paused: there is nothing to decide.`, runId);
    }
    const now = Date.now();
    const made: ApprovalDecision[] = decisions.map((decision) => {
      const pending = status.pending.find((call) => call.callId === decision.callId);
      if (!pending) {
        const listed = status.pending.map((call) => `${call.callId} (${call.toolName})`).join(', ');
        throw new DurableRunError('unknown_call', `Run ${runId} has no pending approval for call ${JSON.stringify(decision.callId)}; pending: ${listed}.`, runId);
      }
      const decidedAt = decision.decidedAt === undefined ? new Date(now).toISOString() : new Date(decision.decidedAt).toISOString();
      if (pending.expiresAt !== undefined && Date.parse(decidedAt) >= Date.parse(pending.expiresAt)) {
        throw new DurableRunError('expired', `The approval request for ${pending.toolName} (call ${pending.callId}) of run ${runId} expired at ${pending.expiresAt}.`, runId);
      }
      return {
        callId: decision.callId,
        approved: decision.approved,
        decidedAt,
        ...(decision.decidedBy === undefined ? {} : { decidedBy: decision.decidedBy }),
        ...(decision.reason === undefined ? {} : { reason: decision.reason }),
        ...(decision.message === undefined ? {} : { message: decision.message }),
      };
    });
    const output = latest.workflow.output as Extract<RunWorkflowOutput, { status: 'paused' }>;
    const previous = latest.workflow.input?.[0] as RunWorkflowInput | undefined;
    const revision = latest.revision + 1;
    const workflowID = runWorkflowId(runId, revision);
    const input: RunWorkflowInput = {
      runId,
      agent: previous?.agent ?? '',
      revision,
      start: { kind: 'resume', state: output.state, decisions: made },
      ...(previous?.maxTurns === undefined ? {} : { maxTurns: previous.maxTurns }),
      ...(previous?.approvalTtlMs === undefined ? {} : { approvalTtlMs: previous.approvalTtlMs }),
      ...(previous?.incarnation === undefined ? {} : { incarnation: previous.incarnation }),
    };
    const version = options.applicationVersion ?? status.applicationVersion;
    await this.dbos.enqueue({ queueName: this.queueName, workflowName: RUN_WORKFLOW_NAME, workflowID, ...(version === undefined ? {} : { appVersion: version }) }, input);
    // Same id, same workflow: if another process started it first, say whether ours was the decision taken.
    const started = await this.dbos.getWorkflow(workflowID);
    const taken = (started?.input?.[0] as RunWorkflowInput | undefined)?.start;
    if (taken?.kind === 'resume') reportTaken(runId, taken.decisions, made);
  }

  /** Refuses a version no worker ever registered: a run for it would wait on the queue, silently, until one does. */
  async #checkVersion(version: string, runId?: string): Promise<void> {
    if (this.#versions.has(version)) return;
    const registered = (await this.dbos.listApplicationVersions()).map((info) => info.versionName);
    for (const name of registered) this.#versions.add(name);
    if (this.#versions.has(version)) return;
    throw new DurableRunError(
      'invalid_options',
      `No worker has registered application version ${JSON.stringify(version)} (registered: ${registered.join(', ') || 'none'}): a run for it would wait on the queue until one does. Launch a worker of that version first.`,
      runId,
    );
  }

  /**
   * The run's events (run items and agent changes, in order, across its resumes). With `follow`,
   * waits for new ones until the run pauses, completes or fails (or `signal` fires, or the client is
   * closed). Any number of followers share the client's one listening connection; through a database
   * outage a follower waits and goes on from the last event it saw (nothing missed, nothing twice).
   */
  async *events(runId: string, options: { follow?: boolean; signal?: AbortSignal } = {}): AsyncIterable<RunEvent> {
    checkRunId(runId);
    if (this.#closed) return;
    const follow = options.follow === true;
    const stop = options.signal ? AbortSignal.any([this.#closing.signal, options.signal]) : this.#closing.signal;
    const bell = new Wakeup();
    const ring = () => bell.ring();
    stop.addEventListener('abort', ring);
    const subscriptions = follow ? [this.listener.subscribe(EVENTS_CHANNEL, runId, ring), this.listener.subscribe(RUN_ENDED_CHANNEL, runId, ring)] : [];
    // Following, a read outlives an outage; a one-off read reports it.
    const read = <T>(attempt: () => Promise<T>) => (follow ? this.#reachable(attempt, stop) : this.#unlessClosed(attempt()));
    try {
      // Only this run's events, not those a deleted run of the same id left behind.
      const incarnation = await read(() => runIncarnation(this.dbos, runId));
      if (incarnation === undefined) {
        if (!follow || stop.aborted) return;
        await read(() => this.status(runId)); // unknown_run
        return;
      }
      let cursor = { revision: -1, seq: -1 };
      for (;;) {
        bell.reset();
        const batch = await read(() => readRunEvents(this.pool, runId, incarnation, cursor));
        if (batch === undefined) return;
        for (const event of batch) {
          cursor = { revision: event.revision, seq: event.seq };
          yield event;
        }
        if (!follow || stop.aborted) return;
        if (batch.length > 0) continue;
        const status = await read(() => this.status(runId));
        if (status === undefined) return;
        if (status.state !== 'queued' && status.state !== 'running') {
          // One last read: events written just before the run ended.
          for (const event of (await read(() => readRunEvents(this.pool, runId, incarnation, cursor))) ?? []) yield event;
          return;
        }
        await bell.wait(FOLLOW_POLL_MS);
      }
    } finally {
      for (const unsubscribe of subscriptions) unsubscribe();
      stop.removeEventListener('abort', ring);
    }
  }

  /**
   * Deletes the run: its workflows (the start, every resume, the approval timers; a run still queued
   * or running is cancelled first) and its events. Its id can then start a new run, which never sees
   * the old run's events. Refused with `unknown_run` when nothing of the run is left.
   */
  async deleteRun(runId: string): Promise<void> {
    checkRunId(runId);
    const workflows = await runWorkflows(this.dbos, runId);
    const open = workflows.filter((workflow) => workflow.status === 'ENQUEUED' || workflow.status === 'PENDING' || workflow.status === 'DELAYED');
    if (open.length > 0) await this.dbos.cancelWorkflows(open.map((workflow) => workflow.workflowID));
    if (workflows.length > 0) await this.dbos.deleteWorkflows(workflows.map((workflow) => workflow.workflowID));
    const events = await deleteRunEvents(this.pool, runId);
    if (workflows.length === 0 && events === 0) throw new DurableRunError('unknown_run', `No durable run has the id ${JSON.stringify(runId)}: there is nothing to delete.`, runId);
  }

  /** The result, or undefined when the client was closed while waiting for it (a follower just ends). */
  async #unlessClosed<T>(pending: Promise<T>): Promise<T | undefined> {
    try {
      return await pending;
    } catch (error) {
      if (this.#closed) return undefined;
      throw error;
    }
  }

  /** `attempt`, tried again while the database is unreachable; undefined once `stop` fires (the client closed, the follower's signal). */
  async #reachable<T>(attempt: () => Promise<T>, stop: AbortSignal): Promise<T | undefined> {
    try {
      return await throughOutage(attempt, stop);
    } catch (error) {
      if (stop.aborted) return undefined;
      throw error;
    }
  }

  /** The DBOS client underneath, for what this one does not cover (listing, forking, cancelling). */
  get dbosClient(): DBOSClient {
    return this.dbos;
  }

  /**
   * Closes the connections; every follower of `events` ends. Returns within `CLOSE_TIMEOUT_MS` even
   * when the database does not answer (its connections are then dropped, not waited for).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closing.abort();
    const closed = Promise.allSettled([this.listener.close(), this.pool.end(), this.dbos.destroy()]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)))]);
    clearTimeout(timer);
  }
}

function statusOf(runId: string, revision: number, workflow: WorkflowStatus): DurableRunStatus {
  const base = { runId, revision, applicationVersion: workflow.applicationVersion, executorId: workflow.executorId, pending: [] as PendingApproval[] };
  switch (workflow.status) {
    case 'ENQUEUED':
    case 'DELAYED':
      return { ...base, state: 'queued' };
    case 'PENDING':
      return { ...base, state: 'running' };
    case 'SUCCESS': {
      const output = workflow.output as RunWorkflowOutput;
      if (output.status === 'paused') return { ...base, state: 'paused', pending: output.pending };
      if (output.status === 'completed') return { ...base, state: 'completed', finalOutput: output.finalOutput, ...(output.lastAgent === undefined ? {} : { lastAgent: output.lastAgent }) };
      return { ...base, state: 'failed', error: output.error };
    }
    default: {
      const error = workflow.error as { name?: string; message?: string } | undefined;
      return { ...base, state: 'failed', error: { name: error?.name ?? workflow.status, message: error?.message ?? `The run's workflow ended ${workflow.status}.` } };
    }
  }
}

async function checkReachable(databaseUrl: string, timeoutMs: number): Promise<void> {
  const probe = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  probe.on('error', () => {});
  try {
    await probe.connect();
  } catch (error) {
    const where = (() => {
      try {
        const url = new URL(databaseUrl);
        return `${url.hostname}:${url.port || 5432}${url.pathname}`;
      } catch {
        return 'the given URL';
      }
    })();
    throw new DurableRunError('unavailable', `DurableRunsClient: cannot reach the database at ${where}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await probe.end().catch(() => undefined);
  }
}

function unlimitedListeners(controller: AbortController): AbortController {
  setMaxListeners(0, controller.signal);
  return controller;
}

function checkTtl(ms: number): number {
  if (!(Number.isFinite(ms) && ms > 0)) throw new DurableRunError('invalid_options', `approvalTtlMs must be a positive number of milliseconds, got ${String(ms)}.`);
  return ms;
}

type DecisionLike = Pick<ApprovalDecision, 'callId' | 'approved' | 'decidedBy'>;

/** Returns when the decision taken for this pause is `ours` (same calls, verdicts and decider); otherwise `already_decided`, naming what was taken and by whom. */
function reportTaken(runId: string, taken: readonly DecisionLike[], ours: readonly DecisionLike[]): void {
  const key = (list: readonly DecisionLike[]) => JSON.stringify(list.map((d) => [d.callId, d.approved, d.decidedBy ?? null]).sort());
  if (key(taken) === key(ours)) return;
  const what = taken.map((d) => `${d.callId}: ${d.approved ? 'approved' : 'rejected'}${d.decidedBy ? ` by ${d.decidedBy}` : ''}`).join(', ') || 'the expiry of its approvals';
  throw new DurableRunError('already_decided', `Run ${runId} was already continued with another decision (${what}).`, runId);
}

function checkDecisions(runId: string, decisions: ReadonlyArray<{ callId: string; approved: boolean }>): void {
  if (!Array.isArray(decisions) || decisions.length === 0) {
    throw new DurableRunError('invalid_options', `A decision for run ${runId} names at least one pending call ({ callId, approved }); got ${Array.isArray(decisions) ? 'none' : String(decisions)}.`, runId);
  }
  const seen = new Set<string>();
  for (const decision of decisions) {
    if (typeof decision?.callId !== 'string' || typeof decision.approved !== 'boolean') {
      throw new DurableRunError('invalid_options', `Each decision for run ${runId} is { callId: string, approved: boolean }; got ${JSON.stringify(decision)}.`, runId);
    }
    if (seen.has(decision.callId)) throw new DurableRunError('invalid_options', `Call ${JSON.stringify(decision.callId)} of run ${runId} is decided twice in one request.`, runId);
    seen.add(decision.callId);
  }
}
