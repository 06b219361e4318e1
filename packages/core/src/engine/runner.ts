import { resolveRunLimits, type RunLimits } from '../definitions/runLimits.js';
import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import * as Fiber from 'effect/Fiber';
import {
  AgentsError,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
  ToolCallError,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  UserError,
  isModelProviderError,
  isRunError,
  type ModelProviderError,
  type RunError,
  type AgentInputItem,
  type ModelProvider,
  type ReasoningItemIdPolicy,
  type RunStreamEvent,
  type Session,
} from '@baton/types';
import type { Agent } from '../definitions/agent.js';
import { firstDefaultProvider } from '../providers/modelProvider.js';
import { ModelProviderService } from '../providers/modelProviderService.js';
import { SessionService } from '../state/sessionService.js';
import { StepRunnerService, defaultStepRunner, type StepRunner } from '../definitions/stepRunner.js';
import type { NonStreamRunOptions, RunConfig, RunOptions, StreamRunOptions } from '../definitions/runConfig.js';
import { RunContext } from '../definitions/runContext.js';
import { RunHooks } from '../definitions/lifecycle.js';
import { RunResult } from './runResult.js';
import { RunState, recordOf } from '../state/runState.js';
import { StreamedRunResult, attachRunFiber, channelOf, createStreamedRunResult, loadEffectStream } from './streamedRunResult.js';
import { asRunFailure, toPublicError, type RunFailure } from './internal/failures.js';
import { inputToItems, validateRunInput } from '../state/internal/items.js';
import { sessionInputItems } from '../state/internal/sessionInputItems.js';
import { FilteredSessionInput } from '../state/internal/filteredSessionInput.js';
import { compactSession } from '../state/internal/sessionCompaction.js';
import { unsavedForSession, historyItemForModelInput, keepRewritten, newSessionProgress, readSession, saveBlockedRun, saveInputOfFailedStream, saveNewInput, saveToSession } from '../state/internal/sessionProgress.js';
import { runLoop } from './internal/loop/runLoop.js';
import { attachSessionSaveFailure } from './internal/loop/sessionSaveFailure.js';
import { getLogger } from '../definitions/logger.js';
import { CompactionItemValidationError } from '@baton/types/internal';
import { McpConnections } from './internal/loop/mcpConnections.js';
import { tracedRun } from './internal/tracedRun.js';
import { failureAfterCancel } from './internal/failureAfterCancel.js';
import { discardingSink, type LoopSettings } from './internal/loop/loopEnv.js';
import { EventChannel } from './internal/eventChannel.js';
import { exclusively, stillOwed, type RunRecord } from '../state/internal/runRecord.js';
import { provideAgentToolFactory } from '../definitions/agentTool.js';
import { agentToolFactory } from './internal/agentTool.js';

export const DEFAULT_MAX_TURNS = 10;
export const DEFAULT_STREAM_BUFFER_SIZE = 256;

export type RunInputArg<TContext, TAgent extends Agent<any, any>> = string | AgentInputItem[] | RunState<TContext, TAgent>;

type Completion = { ok: true } | { ok: false; error: unknown; interrupted: boolean };

/** Runs agents. Promise-first, with `runEffect` for Effect users. Emits the run lifecycle events (`runner.on('agent_start', ...)`). */
export class Runner extends RunHooks<any> {
  readonly config: RunConfig;
  /** Without a \`modelProvider\`: the default provider as it is at this runner's first model lookup, kept for its later runs. */
  readonly #defaultProvider: ModelProvider = firstDefaultProvider();

  constructor(config: RunConfig = {}) {
    super();
    checkedCollisionPolicy(config);
    validateToolExecution(config.toolExecution);
    // The reference's runner shows its effective defaults on `config` (nested agent tools read it).
    this.config = { ...config, traceIncludeSensitiveData: config.traceIncludeSensitiveData ?? true };
  }

  run<TAgent extends Agent<any, any>, TContext = unknown>(
    agent: TAgent,
    input: RunInputArg<TContext, TAgent>,
    options: StreamRunOptions<TContext>,
  ): Promise<StreamedRunResult<TContext, TAgent>>;
  run<TAgent extends Agent<any, any>, TContext = unknown>(
    agent: TAgent,
    input: RunInputArg<TContext, TAgent>,
    options?: NonStreamRunOptions<TContext>,
  ): Promise<RunResult<TContext, TAgent>>;
  run<TAgent extends Agent<any, any>, TContext = unknown>(
    agent: TAgent,
    input: RunInputArg<TContext, TAgent>,
    options?: RunOptions<TContext>,
  ): Promise<RunResult<TContext, TAgent> | StreamedRunResult<TContext, TAgent>>;
  async run<TAgent extends Agent<any, any>, TContext = unknown>(
    agent: TAgent,
    input: RunInputArg<TContext, TAgent>,
    options: RunOptions<TContext> = {},
  ): Promise<RunResult<TContext, TAgent> | StreamedRunResult<TContext, TAgent>> {
    const state = await this.#prepareState(agent, input, options);
    return options.stream ? this.#runStreamed(state, options) : this.#runPlain(state, options);
  }

  /**
   * The run as an Effect: succeeds with the result; fails with a `RunError` (narrow it with
   * `Effect.catchTag('MaxTurnsExceededError', ...)`) or a `ModelProviderError` (such as
   * `OpenAIProviderError`). Anything else a model or your own code threw is a defect carrying that
   * error unchanged (`Effect.catchDefect`). Reads the model provider (`ModelProviderService`), the
   * session (`SessionService`), the clock and the tracer (Effect's `Clock` and `Tracer`) from the
   * context, so layers choose them.
   */
  runEffect<TAgent extends Agent<any, any>, TContext = unknown>(
    agent: TAgent,
    input: RunInputArg<TContext, TAgent>,
    options: NonStreamRunOptions<TContext> = {},
  ): Effect.Effect<RunResult<TContext, TAgent>, RunError | ModelProviderError> {
    const prepare = (session: Session | undefined) => this.#prepareState(agent, input, session === undefined ? options : { ...options, session });
    const loop = (state: RunState<TContext, TAgent>, provider: ModelProvider, steps: StepRunner) => this.#program(state, options, undefined, provider, steps);
    const configured = this.config.modelProvider;
    const configuredSteps = options.stepRunner ?? this.config.stepRunner;
    const program = Effect.gen(function* () {
      // (Not `??`: the CommonJS build turns `??` into a function, where `yield*` cannot be.)
      const provider = configured !== undefined ? configured : yield* ModelProviderService;
      const steps = configuredSteps !== undefined ? configuredSteps : yield* StepRunnerService;
      const session = options.session !== undefined ? options.session : yield* SessionService;
      const state = yield* Effect.tryPromise({ try: () => prepare(session), catch: (e) => asRunFailure(e) });
      const record = recordOf(state);
      yield* loop(state, provider, steps).pipe(
        Effect.tapError((failure) =>
          Effect.sync(() => attachState(toPublicError(failure), state)).pipe(
            Effect.andThen(Effect.promise(() => persist({ ok: false, error: toPublicError(failure), interrupted: false }, record))),
          ),
        ),
      );
      // A paused turn its output guardrails have yet to see is written once it completes (`SessionProgress.held`).
      if (record.session?.held !== true) {
        yield* Effect.tryPromise({ try: () => saveToSession(record.session, record.generatedItems, record.reasoningItemIdPolicy), catch: (e) => asRunFailure(e) });
      }
      return new RunResult(state);
    });
    return program.pipe(Effect.catch((failure) => publicFailure(toPublicError(failure))));
  }

  async #prepareState<TAgent extends Agent<any, any>, TContext>(
    agent: TAgent,
    input: RunInputArg<TContext, TAgent>,
    options: RunOptions<TContext>,
  ): Promise<RunState<TContext, TAgent>> {
    if (typeof agent !== 'object' || agent === null || typeof (agent as { name?: unknown }).name !== 'string') {
      throw new UserError('run(): the first argument must be an Agent.');
    }
    checkedCollisionPolicy(options);
    const reasoningItemIdPolicy = checkedReasoningItemIdPolicy(options.reasoningItemIdPolicy ?? (input instanceof RunState ? recordOf(input).reasoningItemIdPolicy : undefined) ?? this.config.reasoningItemIdPolicy);
    if (input instanceof RunState) {
      const record = recordOf(input);
      if (reasoningItemIdPolicy) record.reasoningItemIdPolicy = reasoningItemIdPolicy;
      if (options.context !== undefined) {
        record.context.context = options.context instanceof RunContext ? options.context.context : options.context;
      }
      // The resumed run's limit counts from the turns already taken, as the reference does.
      if (options.maxTurns !== undefined) record.maxTurns = checkedMaxTurns(options.maxTurns);
      // A state read back from storage (or resumed with another session): what it holds was saved
      // when it paused, but for what its session has not received (a turn held back until its
      // output guardrails see it, an answer they blocked), which the new session gets.
      if (options.session && record.session?.session !== options.session) {
        const unsaved = record.sessionUnsaved ?? unsavedForSession(record.session, record.generatedItems);
        const saved = unsaved === undefined ? record.generatedItems : record.generatedItems.filter((item) => !unsaved.items.has(item));
        record.session = newSessionProgress(options.session, record.context, unsaved?.input, saved);
        record.sessionUnsaved = undefined;
      }
      if (record.session && record.currentStep?.type === 'next_step_interruption') record.session.compactFromInput = true;
      return input;
    }
    validateRunInput(input);
    validateToolExecution({ ...this.config.toolExecution, ...options.toolExecution });
    resolveRunLimits(this.config.limits, options.limits);
    const context = options.context instanceof RunContext ? options.context : new RunContext<TContext>(options.context as TContext);
    const maxTurns = checkedMaxTurns(options.maxTurns !== undefined ? options.maxTurns : (this.config.maxTurns ?? DEFAULT_MAX_TURNS));
    let runInput: string | AgentInputItem[] = input;
    let sessionInput: AgentInputItem[] | undefined;
    // One list of the new input's items: the session's new input is these very objects (a filter's version of each is matched by identity).
    const newItems = inputToItems(input);
    if (options.session) {
      const session = options.session;
      const stored = await readSession(session, context);
      const history = stored.map((item) => historyItemForModelInput(session, item, reasoningItemIdPolicy));
      const historyGiven = [...history];
      // The run's callback, else the Runner's, as the reference chooses.
      const sessionInputCallback = options.sessionInputCallback ?? this.config.sessionInputCallback;
      runInput = sessionInputCallback ? await sessionInputCallback(history, newItems) : [...history, ...newItems];
      if (!Array.isArray(runInput)) throw new UserError('Session input callback must return an array of AgentInputItem objects.');
      // The session keeps the new input as the callback made it (rewritten, reordered or dropped).
      if (sessionInputCallback) sessionInput = sessionInputItems(runInput, historyGiven);
    }
    const state = new RunState<TContext, TAgent>(context, runInput, agent, maxTurns);
    if (reasoningItemIdPolicy) recordOf(state).reasoningItemIdPolicy = reasoningItemIdPolicy;
    // When the server keeps the conversation (previousResponseId / conversationId), it owns the
    // history: nothing is written to the session, as in the reference.
    const serverOwnsHistory = options.previousResponseId !== undefined || options.conversationId !== undefined;
    if (options.session && !serverOwnsHistory) {
      const progress = newSessionProgress(options.session, context, sessionInput ?? newItems);
      // With an input filter the session keeps what the model was sent of the new input.
      if ((options.callModelInputFilter ?? this.config.callModelInputFilter) !== undefined) progress.filteredInput = new FilteredSessionInput(progress.pendingInput ?? []);
      recordOf(state).session = progress;
    }
    return state;
  }

  #env(
    state: RunState<any, any>,
    options: RunOptions<any>,
    streamed: boolean,
    channel: EventChannel<RunStreamEvent> | undefined,
    provider: ModelProvider = this.config.modelProvider ?? this.#defaultProvider,
    steps: StepRunner = options.stepRunner ?? this.config.stepRunner ?? defaultStepRunner,
    onTurnStart?: (turn: number) => void,
  ): LoopSettings {
    const record = recordOf(state);
    const pick = <K extends keyof RunConfig>(key: K): RunConfig[K] => (options[key as keyof RunOptions] as RunConfig[K]) ?? this.config[key];
    const stepRunner = steps === defaultStepRunner ? undefined : steps;
    return {
      // Nested agent-tool runs inherit this configuration, the provider in use included (and the
      // step runner, scoped to their call when they start).
      runConfig: { ...this.config, ...stripRunOnly(options), modelProvider: provider, stepRunner: steps },
      stepRunner,
      modelProvider: provider,
      model: pick('model'),
      modelSettings: { ...this.config.modelSettings, ...options.modelSettings },
      inputGuardrails: joined(this.config.inputGuardrails, options.inputGuardrails),
      outputGuardrails: joined(this.config.outputGuardrails, options.outputGuardrails),
      toolNotFoundBehavior: pick('toolNotFoundBehavior') ?? 'return_error_to_model',
      invalidToolInputBehavior: pick('invalidToolInputBehavior') ?? 'return_error_to_model',
      handoffInputFilter: pick('handoffInputFilter'),
      toolErrorFormatter: pick('toolErrorFormatter'),
      outputGuardrailBlockedMessage: pick('outputGuardrailBlockedMessage'),
      callModelInputFilter: pick('callModelInputFilter'),
      errorHandlers: pick('errorHandlers'),
      publicState: state,
      hooks: this,
      toolNameCollisionPolicy: pick('toolNameCollisionPolicy') ?? 'error',
      preApprovalInputGuardrails: { ...this.config.toolExecution, ...options.toolExecution }.preApprovalInputGuardrails ?? false,
      limits: limitsWithToolConcurrency(resolveRunLimits(this.config.limits, options.limits), { ...this.config.toolExecution, ...options.toolExecution }),
      beforeHistoryRewrite: (items) => keepRewritten(record.session, items),
      streamed,
      emit: channel ? (event) => channel.offer(event) : () => Effect.void,
      sink: channel ?? discardingSink,
      observed: channel !== undefined,
      mcpConnections: new McpConnections(),
      signal: options.signal,
      onTurnStart,
      traced: false, // decided by the loop when it starts
    };
  }

  /** One run of the loop over the state's record: the only run of it at a time. */
  #program(
    state: RunState<any, any>,
    options: RunOptions<any>,
    channel: EventChannel<RunStreamEvent> | undefined,
    provider?: ModelProvider,
    steps?: StepRunner,
    onTurnStart?: (turn: number) => void,
  ): Effect.Effect<void, RunFailure> {
    const record = recordOf(state);
    const start = Effect.sync(() => {
      const previous = record.serverConversation;
      record.serverConversation =
        options.previousResponseId !== undefined || options.conversationId !== undefined
          ? { previousResponseId: options.previousResponseId, conversationId: options.conversationId, knownItems: undefined, owedOutputs: stillOwed(previous) }
          : undefined;
    });
    const env = this.#env(state, options, channel !== undefined, channel, provider, steps, onTurnStart);
    // Runs inside this run (a guardrail backed by an agent, say) resolve model names as it does.
    const loop = runLoop(record, env).pipe(Effect.provideService(ModelProviderService, env.modelProvider));
    return tracedRun(exclusively(record, Effect.andThen(start, loop)), this.config, options, record);
  }

  async #runPlain<TContext, TAgent extends Agent<any, any>>(state: RunState<TContext, TAgent>, options: RunOptions<TContext>) {
    const record = recordOf(state);
    options.signal?.throwIfAborted();
    const exit = await Effect.runPromiseExit(this.#program(state, options, undefined), {
      signal: options.signal,
    });
    const outcome = completionOf(exit, options.signal, record);
    await persist(outcome, record);
    if (!outcome.ok) throw attachState(outcome.error, state);
    return new RunResult(state);
  }

  async #runStreamed<TContext, TAgent extends Agent<any, any>>(state: RunState<TContext, TAgent>, options: RunOptions<TContext>) {
    const size = options.streamBufferSize ?? this.config.streamBufferSize ?? DEFAULT_STREAM_BUFFER_SIZE;
    if (!Number.isInteger(size) || size < 1) throw new UserError(`streamBufferSize must be a positive integer, got ${String(size)}.`);
    const result = createStreamedRunResult<TContext, TAgent>({ state, signal: options.signal }, size);
    const program = this.#program(state, options, channelOf(result), undefined, undefined, (turn) => void (result.currentTurn = turn));
    const fiber = Effect.runFork(program);
    attachRunFiber(result, fiber);
    // Ends the result once the run's fiber has ended and the session has been written; a run the
    // caller cancelled, or whose model stream the provider aborted, ends quietly, unless its model
    // call then failed with an error of its own (see `failureAfterCancel`). A failed run's reader
    // gets every event queued before the failure, then the error (the reference drops the queued
    // ones: nothing is lost here).
    void Effect.runPromise(Fiber.await(fiber).pipe(Effect.flatMap((exit) => settle(exit, options.signal, state)))).then((outcome) => {
      const failure = outcome.ok ? undefined : outcome.interrupted ? failureAfterCancel(recordOf(state), options.signal) : outcome.error;
      if (failure === undefined) result._done();
      else result._raiseError(attachState(failure, state), { preserveQueuedItems: true });
    });
    // The run is already going (its events wait in the buffer); `toEffectStream` needs the module.
    await loadEffectStream();
    return result;
  }
}

const NONE: readonly never[] = Object.freeze([]);

/** The runner's list then the run's, without a new array when either is empty. */
function joined<T>(first: readonly T[] | undefined, second: readonly T[] | undefined): readonly T[] {
  if (!first?.length) return second ?? NONE;
  return second?.length ? [...first, ...second] : first;
}

/** The typed failure of `runEffect`: Baton's run errors and providers' errors; anything else is a defect. */
function publicFailure(error: unknown): Effect.Effect<never, RunError | ModelProviderError> {
  return isRunError(error) || isModelProviderError(error) ? Effect.fail(error) : Effect.die(error);
}

/** How a streamed run ended, after writing its session; a failed write is the run's error. */
function settle(exit: Exit.Exit<void, RunFailure>, signal: AbortSignal | undefined, state: RunState<any, any>): Effect.Effect<Completion> {
  return Effect.suspend(() => {
    const record = recordOf(state);
    const outcome = completionOf(exit, signal, record);
    if (!outcome.ok) attachState(outcome.error, state);
    return Effect.tryPromise({ try: () => persistStreamed(outcome, record), catch: (error) => error }).pipe(
      Effect.as(outcome),
      Effect.catch((error): Effect.Effect<Completion> => Effect.succeed({ ok: false, error, interrupted: false })),
    );
  });
}

/**
 * A streamed run writes what any run writes; one that failed on its own (not its guardrails, not
 * cancelled) after its input reached the model keeps that input too, as the reference's streamed
 * runs do (its plain runs do not: nor do Baton's). A failed save becomes the error's `cause`.
 */
function persistStreamed(outcome: Completion, record: RunRecord): Promise<void> {
  if (outcome.ok || outcome.interrupted) return persist(outcome, record, true);
  const error = outcome.error;
  if (error instanceof InputGuardrailTripwireTriggered || error instanceof GuardrailExecutionError || error instanceof OutputGuardrailTripwireTriggered) return persist(outcome, record, true);
  // The input may be what the malformed compaction was meant to replace: nothing of it is kept.
  if (error instanceof CompactionItemValidationError) return persist(outcome, record, true);
  return saveInputOfFailedStream(record.session).catch((saveFailure: unknown) => {
    // The run's own error stays what the caller sees; the failed save rides on it, or is logged when it already has a cause.
    if (error instanceof Error && error.cause === undefined) attachSessionSaveFailure(error, saveFailure);
    else getLogger().warn('A failed streamed run could not keep its input in its session:', saveFailure);
  });
}

/**
 * What a finished run writes to its session: everything (a run cancelled between turns too), or,
 * when its output guardrails tripped or failed, all but the unchecked answer (a tool output they
 * blocked is already withheld). A failed save of such a run becomes its error's `cause`.
 */
function persist(outcome: Completion, record: RunRecord, streamed = false): Promise<void> {
  // A run cancelled between turns (its tools drained, or before the next model call) keeps what it settled, as a finished one.
  const settled = outcome.ok || (outcome.interrupted && record.turnInProgress !== true && record.currentStep?.type === 'next_step_run_again');
  // A run paused on a turn its output guardrails have yet to see writes none of it; a streamed one
  // keeps its input (as the reference's, which writes it before the model call).
  if (settled && record.session?.held === true) return streamed ? saveNewInput(record.session) : Promise.resolve();
  if (settled) return saveToSession(record.session, record.generatedItems, record.reasoningItemIdPolicy).then(() => compactSession(record));
  const stopped = outcome.error;
  if (!stoppedByOutputGuardrails(stopped, record)) return Promise.resolve();
  // The guardrails' error is what the caller must see; a session that fails to save rides on it.
  return saveBlockedRun(record.session, record.generatedItems, record.reasoningItemIdPolicy).catch((error: unknown) => attachSessionSaveFailure(stopped, error));
}

/** The run ended on its output guardrails: one tripped, or one failed while its answer was still unchecked. */
function stoppedByOutputGuardrails(error: unknown, record: RunRecord): error is OutputGuardrailTripwireTriggered | GuardrailExecutionError {
  if (error instanceof OutputGuardrailTripwireTriggered) return true;
  const step = record.currentStep;
  return error instanceof GuardrailExecutionError && step?.type === 'next_step_final_output' && step.unchecked === true;
}

function completionOf(exit: Exit.Exit<void, RunFailure>, signal: AbortSignal | undefined, record: RunRecord): Completion {
  if (Exit.isSuccess(exit)) return { ok: true };
  if (Cause.hasInterruptsOnly(exit.cause)) {
    // The caller's abort: a reason the caller gave; else the model's own abort error when a call was
    // in flight (as the reference rejects), rather than the signal's bare DOMException.
    const error = signal?.aborted ? (isDefaultAbortReason(signal.reason) ? (record.abortedWith ?? signal.reason) : signal.reason) : abortError();
    return { ok: false, error, interrupted: true };
  }
  const failure = Cause.findErrorOption(exit.cause);
  if (failure._tag === 'Some') return { ok: false, error: toPublicError(failure.value), interrupted: false };
  return { ok: false, error: Cause.squash(exit.cause), interrupted: false };
}

/** A policy that is given (even as `null`) must be 'warn' or 'error'; checked before any model call. */
function checkedCollisionPolicy(config: { toolNameCollisionPolicy?: unknown }): void {
  const policy = config.toolNameCollisionPolicy;
  if (policy === undefined || policy === 'warn' || policy === 'error') return;
  throw new UserError('toolNameCollisionPolicy must be either "warn" or "error".');
}

/** Checked when a Runner is made and again for each run's own options (the reference's words lead each message). */
function validateToolExecution(toolExecution: RunConfig['toolExecution']): void {
  const value = toolExecution?.preApprovalInputGuardrails;
  if (value !== undefined && typeof value !== 'boolean') {
    throw new UserError(`toolExecution.preApprovalInputGuardrails must be a boolean when provided. Got ${typeof value}.`);
  }
  const concurrency = toolExecution?.maxFunctionToolConcurrency;
  if (concurrency !== undefined && concurrency !== null && (!Number.isInteger(concurrency) || concurrency < 1)) {
    throw new UserError(`toolExecution.maxFunctionToolConcurrency must be an integer greater than or equal to 1. Got ${String(concurrency)}.`);
  }
}

/** The run's limits, with \`toolExecution.maxFunctionToolConcurrency\` as a further cap on concurrent tool calls. */
function limitsWithToolConcurrency(limits: Required<RunLimits>, toolExecution: RunConfig['toolExecution']): Required<RunLimits> {
  const cap = toolExecution?.maxFunctionToolConcurrency;
  return typeof cap === 'number' && cap < limits.maxConcurrentToolCalls ? { ...limits, maxConcurrentToolCalls: cap } : limits;
}

/** A whole number of turns (0 fails before the first model call), or `null` for no limit. */
function checkedMaxTurns(maxTurns: number | null): number | null {
  if (maxTurns !== null && (!Number.isInteger(maxTurns) || maxTurns < 0)) {
    throw new UserError(`maxTurns must be a non-negative integer or null, got ${String(maxTurns)}.`);
  }
  return maxTurns;
}

function checkedReasoningItemIdPolicy(policy: unknown): ReasoningItemIdPolicy | undefined {
  if (policy === undefined || policy === 'preserve' || policy === 'omit') return policy;
  throw new UserError(`reasoningItemIdPolicy must be 'preserve' or 'omit', got ${JSON.stringify(policy)}.`);
}

/** `controller.abort()` without a reason gives a DOMException named AbortError. */
function isDefaultAbortReason(reason: unknown): boolean {
  return typeof DOMException !== 'undefined' && reason instanceof DOMException && reason.name === 'AbortError';
}

function abortError(): Error {
  const error = new Error('The run was cancelled.');
  error.name = 'AbortError';
  return error;
}

/**
 * The run's state on its error, and on the tool guardrail tripwire a `ToolCallError` wraps (the
 * same state, with the tool guardrail results of every turn so far). A tool's own plain error is
 * left as it was thrown.
 */
function attachState(error: unknown, state: RunState<any, any>): unknown {
  if (error instanceof AgentsError && error.state === undefined) error.state = state;
  if (error instanceof ToolCallError && (error.error instanceof ToolInputGuardrailTripwireTriggered || error.error instanceof ToolOutputGuardrailTripwireTriggered)) {
    error.error.state ??= state;
  }
  return error;
}

function stripRunOnly(options: RunOptions<any>): RunConfig {
  const { context: _c, signal: _s, stream: _st, session: _se, sessionInputCallback: _sic, previousResponseId: _p, conversationId: _cv, ...config } = options;
  return config;
}

let defaultRunner: Runner | undefined;

/** Runs an agent with the shared default runner. */
export function run<TAgent extends Agent<any, any>, TContext = unknown>(
  agent: TAgent,
  input: RunInputArg<TContext, TAgent>,
  options: StreamRunOptions<TContext>,
): Promise<StreamedRunResult<TContext, TAgent>>;
export function run<TAgent extends Agent<any, any>, TContext = unknown>(
  agent: TAgent,
  input: RunInputArg<TContext, TAgent>,
  options?: NonStreamRunOptions<TContext>,
): Promise<RunResult<TContext, TAgent>>;
export function run<TAgent extends Agent<any, any>, TContext = unknown>(
  agent: TAgent,
  input: RunInputArg<TContext, TAgent>,
  options?: RunOptions<TContext>,
): Promise<RunResult<TContext, TAgent> | StreamedRunResult<TContext, TAgent>> {
  defaultRunner ??= new Runner();
  return defaultRunner.run(agent, input, options);
}

// `agent.asTool()` (definitions) builds its tools with this factory: their nested runs need the runner.
provideAgentToolFactory(agentToolFactory((config, agent, input, options) => new Runner(config).run(agent, input, options)));
