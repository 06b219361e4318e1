import { DBOS, type WorkflowQueue } from '@dbos-inc/dbos-sdk';
import type { Agent, RunConfig } from '@baton/core';
import type { AgentInputItem } from '@baton/types';
import pg from 'pg';
import { DurableRunError } from './durableRunError.js';
import { DEFAULT_APP_NAME, DEFAULT_QUEUE_NAME, DurableRunsClient, RUN_WORKFLOW_NAME, type StartRunOptions } from './durableRunsClient.js';
import { ExecutorLock, executorLockKey } from './internal/executorLock.js';
import { migrateOnce } from './internal/migrate.js';
import { systemDatabaseUrl } from './internal/systemDatabase.js';
import { NotificationListener } from './internal/notificationListener.js';
import { recoverDeadExecutors } from './internal/recoverDeadExecutors.js';
import { RunDispatcher } from './internal/runDispatcher.js';
import { GraphRecorder } from './internal/graphRecorder.js';
import { RunEventBatcher } from './internal/runEventBatcher.js';
import { QUEUED_CHANNEL } from './internal/statusNotifications.js';
import { runWorkflow, type RunWorkflowEnv } from './internal/runWorkflow.js';
import { knownClasses } from './internal/stepFailure.js';
import { expiryWorkflowId, runWorkflowId } from './internal/workflowIds.js';
import type { RunWorkflowInput } from './internal/workflowTypes.js';

export interface DurableWorkerOptions {
  /** The PostgreSQL database DBOS keeps runs in (created when missing). */
  readonly databaseUrl: string;
  /** This worker's version of the application (its agents and Baton): runs continue only on workers of the version that started them. */
  readonly applicationVersion: string;
  /** Unique per worker process, and the same when that process restarts (so it recovers its own runs at once). */
  readonly executorId: string;
  /** The agents this worker runs, by the names runs are started with. */
  readonly agents: Readonly<Record<string, Agent<any, any>>>;
  /** How runs are run: model provider, model settings, guardrails, ... (`stepRunner` is DBOS's). */
  readonly runner?: Omit<RunConfig, 'stepRunner'>;
  /**
   * Error classes of your own (your tools', your model provider's, such as `OpenAIProviderError`): a
   * failed step replayed after a crash gives its error back as that class (matched by class name),
   * as the live failure did. Baton's errors and JavaScript's are known already; an error of any other
   * class comes back as the nearest known class up its prototype chain, with its name, message and fields.
   */
  readonly errorClasses?: ReadonlyArray<abstract new (...args: any[]) => Error>;
  /** The DBOS application name (default `'baton'`): workers and clients of one application share it. */
  readonly appName?: string;
  /**
   * The queue runs wait on; `workerConcurrency` caps the runs this process runs at once (default 8).
   * A queued run starts as soon as a worker has room (a notification wakes it); the worker also
   * looks at the queue every `pollingIntervalMs` (default 1000) in case a notification was missed,
   * or cannot arrive (no `LISTEN` through a transaction-pooling proxy). See the README's "Latency and throughput".
   */
  readonly queue?: { readonly name?: string; readonly workerConcurrency?: number; readonly globalConcurrency?: number; readonly pollingIntervalMs?: number };
  /** Pending approvals expire this long after the run paused; the run then continues with them rejected. */
  readonly approvalTtlMs?: number;
  /** How often this worker looks for runs of dead workers to take over (default 5 s; `false`: never). */
  readonly recoveryIntervalMs?: number | false;
  /** DBOS's log level (default `'warn'`). */
  readonly logLevel?: 'error' | 'warn' | 'info' | 'debug';
}

let launched: DurableWorker | undefined;

/**
 * A worker process for durable runs: it runs agent runs as DBOS workflows taken from a queue, each
 * model call, tool call, guardrail and handoff a DBOS step checkpointed in PostgreSQL. A worker that
 * dies mid-run loses nothing: its runs are taken over (by itself when it restarts with the same
 * executor id, or by a live worker of the same version that sees it is gone) and replay their
 * committed steps instead of running them again. DBOS keeps one application per process, so there
 * is one worker per process.
 *
 * What is promised: a committed step (a model answer, a tool's output) is never run again; the step
 * in flight when a worker dies runs again (at least once), so tools with outside effects should
 * deduplicate on `details.runId` and the call id.
 */
export class DurableWorker {
  readonly client: DurableRunsClient;
  readonly options: DurableWorkerOptions;
  readonly #lock: ExecutorLock;
  readonly #events: pg.Pool;
  readonly #dispatch: Dispatch | undefined;
  #recovery: ReturnType<typeof setInterval> | undefined;

  private constructor(options: DurableWorkerOptions, client: DurableRunsClient, lock: ExecutorLock, events: pg.Pool, dispatch: Dispatch | undefined) {
    this.options = options;
    this.client = client;
    this.#lock = lock;
    this.#events = events;
    this.#dispatch = dispatch;
  }

  /**
   * Migrates the database (once, whoever comes first), registers the workflows, launches DBOS and
   * starts serving the queue. Rejects with a `DurableRunError` for missing options or an executor id
   * another live worker holds.
   */
  static async launch(options: DurableWorkerOptions): Promise<DurableWorker> {
    checkOptions(options);
    if (launched) throw new DurableRunError('invalid_options', `A DurableWorker (executor ${launched.options.executorId}) already runs in this process; DBOS allows one per process.`);
    const appName = options.appName ?? DEFAULT_APP_NAME;
    const queueName = options.queue?.name ?? DEFAULT_QUEUE_NAME;
    await migrateOnce(options.databaseUrl);
    // Before launching: a dead worker's runs are recovered only by whoever holds its lock.
    const lock = await ExecutorLock.acquire(options.databaseUrl, executorLockKey(appName, options.executorId));
    if (!lock) throw new DurableRunError('invalid_options', `Executor id ${JSON.stringify(options.executorId)} is in use by a live worker; give each worker process its own.`);
    const events = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
    events.on('error', () => {}); // an idle connection lost in an outage is dropped; queries report their own errors
    let client: DurableRunsClient | undefined;
    let dispatch: Dispatch | undefined;
    const dispatching = RunDispatcher.supported();
    try {
      const env: RunWorkflowEnv = {
        agents: new Map(Object.entries(options.agents)),
        runner: options.runner ?? {},
        errorClasses: knownClasses(options.errorClasses),
        graphs: new GraphRecorder(events),
        events: new RunEventBatcher(events),
        approvalTtlMs: options.approvalTtlMs,
        startExpiryTimer: async (next, expiresAt) => {
          // On a queue of its own, without a concurrency limit: a timer that sleeps for days must not take one of the runs' slots.
          await DBOS.startWorkflow(expiryWorkflow, { workflowID: expiryWorkflowId(next.runId, next.revision - 1), queueName: timerQueueName(queueName) })(next, expiresAt);
        },
      };
      const runWorkflowFn = DBOS.registerWorkflow((input: RunWorkflowInput) => runWorkflow(env, input).finally(() => dispatch?.runEnded()), { name: RUN_WORKFLOW_NAME });
      // Waits out an approval expiry, then continues the run (its undecided calls count as rejected),
      // unless a decision continued it first: the resume workflow id is the same, so it starts once.
      const expiryWorkflow = DBOS.registerWorkflow(
        async (next: RunWorkflowInput, expiresAt: string) => {
          const wait = Date.parse(expiresAt) - (await DBOS.now());
          if (wait > 0) await DBOS.sleep(wait);
          await DBOS.startWorkflow(runWorkflowFn, { workflowID: runWorkflowId(next.runId, next.revision), queueName })(next);
        },
        { name: 'baton.expire' },
      );
      DBOS.setConfig({
        name: appName,
        systemDatabaseUrl: systemDatabaseUrl(options.databaseUrl),
        applicationVersion: options.applicationVersion,
        executorID: options.executorId,
        runMigrations: false,
        logLevel: options.logLevel ?? 'warn',
        // DBOS's own listening session serves DBOS.recv, getEvent and streams, which runs do not use (their
        // notifications are Baton's, on the worker's one listening connection). Without it, every NOTIFY in
        // the database wakes one session less, and DBOS's notifier loop does not tick every 10 ms; those
        // DBOS calls, if an app makes them in a worker, poll instead.
        useListenNotify: false,
        // DBOS's own queue loop serves the timers only; the runs' queue is claimed by the dispatcher below, when woken
        // (unless this DBOS lacks what the dispatcher uses: then DBOS's loop polls the runs' queue too).
        ...(dispatching ? { listenQueues: [timerQueueName(queueName)] } : {}),
      });
      await DBOS.launch();
      const pollMs = options.queue?.pollingIntervalMs ?? DEFAULT_POLLING_INTERVAL_MS;
      const runQueue = await DBOS.registerQueue(queueName, {
        workerConcurrency: options.queue?.workerConcurrency ?? DEFAULT_WORKER_CONCURRENCY,
        ...(options.queue?.globalConcurrency === undefined ? {} : { globalConcurrency: options.queue.globalConcurrency }),
        minPollingIntervalMs: pollMs,
      });
      await DBOS.registerQueue(timerQueueName(queueName));
      if (dispatching) dispatch = startDispatch(options, runQueue, pollMs);
      else console.warn(`DurableWorker ${options.executorId}: this version of DBOS lacks the claim and dispatch Baton uses to start runs at once; runs start at DBOS's queue poll (every ${pollMs} ms).`);
      client = await DurableRunsClient.create({ databaseUrl: options.databaseUrl, appName, queueName });
      const worker = new DurableWorker(options, client, lock, events, dispatch);
      launched = worker;
      worker.#startRecovery();
      return worker;
    } catch (error) {
      await dispatch?.stop().catch(() => undefined);
      await client?.close().catch(() => undefined);
      await events.end().catch(() => undefined);
      await lock.release().catch(() => undefined);
      await DBOS.shutdown({ deregister: true }).catch(() => undefined);
      throw error;
    }
  }

  /** Starts a run on this worker's version (any worker of it may take it from the queue). Returns the run id. */
  async startRun(agent: string, input: string | AgentInputItem[], options: Omit<StartRunOptions, 'applicationVersion'> = {}): Promise<string> {
    if (!Object.hasOwn(this.options.agents, agent)) {
      throw new DurableRunError('unknown_agent', `No agent is registered as ${JSON.stringify(agent)}; registered: ${Object.keys(this.options.agents).join(', ')}.`);
    }
    return this.client.startRun(agent, input, { ...options, applicationVersion: this.options.applicationVersion });
  }

  /** Looks once for runs of dead workers and puts them back on the queue (the timer does this every `recoveryIntervalMs`). */
  recoverDeadWorkers(): Promise<string[]> {
    const appName = this.options.appName ?? DEFAULT_APP_NAME;
    return recoverDeadExecutors(this.client.dbosClient, {
      databaseUrl: this.options.databaseUrl,
      appName,
      applicationVersion: this.options.applicationVersion,
      self: this.options.executorId,
      queueName: this.options.queue?.name ?? DEFAULT_QUEUE_NAME,
    });
  }

  /** Stops serving: runs in flight stop where they are and continue on the next worker of this version. */
  async shutdown(): Promise<void> {
    if (this.#recovery) clearInterval(this.#recovery);
    if (launched === this) launched = undefined;
    await this.#dispatch?.stop();
    await DBOS.shutdown({ deregister: true });
    await this.client.close();
    await this.#events.end();
    await this.#lock.release();
  }

  #startRecovery(): void {
    const every = this.options.recoveryIntervalMs ?? 5_000;
    if (every === false) return;
    this.#recovery = setInterval(() => {
      this.recoverDeadWorkers().catch((error: unknown) => console.warn(`DurableWorker ${this.options.executorId}: recovering dead workers' runs failed: ${String(error)}`));
    }, every);
    this.#recovery.unref?.();
  }
}

const DEFAULT_WORKER_CONCURRENCY = 8;
/** The dispatcher's safety net: it looks at the queue this often even without a notification. */
const DEFAULT_POLLING_INTERVAL_MS = 1000;

interface Dispatch {
  /** A run of this worker returned (its slot comes free once DBOS recorded its end). */
  runEnded(): void;
  stop(): Promise<void>;
}

/**
 * The worker's dispatcher, woken by the notification that a workflow was put on its queue (over a
 * listening connection of its own, which reconnects after an outage and then wakes it too).
 */
function startDispatch(options: DurableWorkerOptions, queue: WorkflowQueue, pollMs: number): Dispatch {
  const dispatcher = new RunDispatcher(queue, pollMs, (error) => console.warn(`DurableWorker ${options.executorId}: claiming queued runs failed: ${String(error)}`));
  const listener = new NotificationListener(options.databaseUrl, [QUEUED_CHANNEL]);
  listener.subscribe(QUEUED_CHANNEL, queue.name, () => dispatcher.wake());
  dispatcher.wake();
  return {
    runEnded: () => dispatcher.runEnded(),
    async stop() {
      await listener.close();
      await dispatcher.stop();
    },
  };
}

/** The queue approval timers wait on, beside the runs' queue. */
function timerQueueName(queueName: string): string {
  return `${queueName}.timers`;
}

function checkOptions(options: DurableWorkerOptions): void {
  const missing = (['databaseUrl', 'applicationVersion', 'executorId'] as const).filter((key) => typeof options?.[key] !== 'string' || options[key] === '');
  if (missing.length > 0) throw new DurableRunError('invalid_options', `DurableWorker.launch: ${missing.map((key) => `\`${key}\``).join(', ')} must be given (non-empty strings).`);
  if (typeof options.agents !== 'object' || options.agents === null || Object.keys(options.agents).length === 0) {
    throw new DurableRunError('invalid_options', 'DurableWorker.launch: `agents` must name at least one agent ({ support: supportAgent }).');
  }
  if (options.approvalTtlMs !== undefined && !(Number.isFinite(options.approvalTtlMs) && options.approvalTtlMs > 0)) {
    throw new DurableRunError('invalid_options', `DurableWorker.launch: \`approvalTtlMs\` must be a positive number of milliseconds, got ${String(options.approvalTtlMs)}.`);
  }
}
