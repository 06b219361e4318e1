import * as Effect from 'effect/Effect';
import { agentSpan, span, tracerListens } from './span.js';
import { agentEnded, agentStarted } from './lifecycleHooks.js';
import type { Agent } from '../../../definitions/agent.js';
import { outputTypeName } from '../../../definitions/internal/resolvedOutputType.js';
import { MaxTurnsExceededError, type InputGuardrailFunctionArgs, type ModelResponse } from '@baton/types';
import { asRunFailure, type RunFailure } from '../failures.js';
import { functionCallResult, inputToItems } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { callModel } from './callModel.js';
import { classifyResponse, type ProcessedResponse, type ToolRun } from './classifyResponse.js';
import type { LocalToolRun } from './localToolRuns.js';
import { executeToolRuns } from './executeTools.js';
import { disposeComputersUnlessPaused } from './computerLifecycle.js';
import { answerClientToolSearches } from './clientToolSearch.js';
import { screenCallIds, screenIgnoredHandoffCalls } from './callIdScreening.js';
import { screenLocalCallIds } from './localCallIdScreening.js';
import { runInputGuardrails, withParallelGuardrails } from './guardrails.js';
import type { LoopEnv, LoopSettings } from './loopEnv.js';
import { prepareTurn, resolveCapabilities, type PreparedTurn } from './prepareTurn.js';
import { resolveTurn, type TurnOutcome } from './resolveTurn.js';
import { checkFinalOutput } from './checkFinalOutput.js';
import { publish, recoverRunError } from './recoverRunError.js';
import { step as runStep } from './steps.js';
import { stringCodec } from './stepCodecs.js';
import { randomUuid } from '../../../definitions/internal/uuid.js';
import { primeResumedServerConversation } from './resumedServerConversation.js';
import { IGNORED_HANDOFF_ANSWER } from './ignoredHandoffAnswer.js';
import { promptMaySupplyTools } from './promptSuppliedTools.js';
import { flatMapNow } from '../flatMapNow.js';
import { enterHistory } from './enterHistory.js';
import { saveToSession } from '../../../state/internal/sessionProgress.js';
import { holdsPausedTurn } from './heldPausedTurn.js';

const runIdKey = () => 'id:run';
const newRunId = Effect.sync(randomUuid);

const EMPTY_RESPONSE: ModelResponse = { output: [], usage: { requests: 0 } };

/**
 * The run loop: resume an interrupted turn if the state holds one, then run turns until one
 * produces a final output or pauses for approval. Each phase updates the run's one record.
 */
export function runLoop(record: RunRecord, settings: LoopSettings): Effect.Effect<void, RunFailure> {
  // Whether a tracer listens is read once, here, where the run's tracer is in place.
  return Effect.withFiber((fiber) => {
    settings.traced = tracerListens(fiber);
    const env: LoopEnv = settings;
    // What an earlier pause held back is written with what this run writes.
    if (record.session !== undefined) record.session.held = false;
    return Effect.clockWith((clock) => {
      // Approval expiry reads the run's clock (TestClock in an Effect test).
      record.context.useClock(clock);
      const identified =
        record.runId === undefined ? Effect.map(runStep(env.stepRunner, 'id', runIdKey, stringCodec, newRunId), (runId) => void (record.runId = runId)) : Effect.void;
      return flatMapNow(identified, () => {
        const step = record.currentStep;
        if (step?.type === 'next_step_final_output') {
          // A state that already has its answer (or whose output check failed): check it again, no model call.
          const agent = record.currentAgent;
          return checkFinalOutput(step.output, agent, record.modelResponses.at(-1) ?? EMPTY_RESPONSE, record, env).pipe(
            Effect.andThen(announceFinalOutput(agent, record, env)),
            agentSpan(env, agentAttributes(agent)),
          );
        }
        // A turn whose model call was cancelled, resumed on the server's conversation: the server holds
        // what came before that call's request; the request is sent again from there (as the reference).
        if (record.turnInProgress === true && record.modelResponses.length > 0) primeResumedServerConversation(record);
        return agentsFrom(record, env, step?.type === 'next_step_interruption');
      });
    }).pipe(Effect.ensuring(env.mcpConnections.closeAll), Effect.ensuring(disposeComputersUnlessPaused(record)), span(env, 'baton.run'));
  });
}

/** Each agent's turns in turn, until one ends or pauses the run instead of handing off. */
function agentsFrom(record: RunRecord, env: LoopEnv, resuming: boolean): Effect.Effect<void, RunFailure> {
  return Effect.flatMap(agentTurns(record, env, resuming), (outcome) => (outcome === 'continue' ? agentsFrom(record, env, false) : noteEnd(record, env)));
}

/** The run ended or paused: a paused turn the output guardrails have yet to see keeps its session writes back (`holdsPausedTurn`). */
function noteEnd(record: RunRecord, env: LoopEnv): Effect.Effect<void> {
  return Effect.sync(() => {
    if (record.session !== undefined) record.session.held = holdsPausedTurn(record, env);
  });
}

/**
 * One agent's consecutive turns, inside that agent's span: until the run ends, pauses, or hands
 * off (the next agent gets a span of its own).
 */
function agentTurns(record: RunRecord, env: LoopEnv, resuming: boolean): Effect.Effect<TurnOutcome, RunFailure> {
  const agent = record.currentAgent;
  const first = resuming ? resumeInterruptedTurn(record, env) : recoveredTurn(record, env, true);
  return Effect.flatMap(first, (outcome) => turnsAfter(outcome, agent, record, env)).pipe(agentSpan(env, agentAttributes(agent)));
}

/** The agent's next turns while the last one asked for more and the agent is still current. */
function turnsAfter(outcome: TurnOutcome, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<TurnOutcome, RunFailure> {
  if (outcome === 'continue' && record.currentAgent === agent) {
    return Effect.flatMap(recoveredTurn(record, env, false), (next) => turnsAfter(next, agent, record, env));
  }
  return outcome === 'done' ? Effect.as(announceFinalOutput(record.currentAgent, record, env), outcome) : Effect.succeed(outcome);
}

/** A turn; running out of turns is handed to the run's error handler, which may end the run instead. */
function recoveredTurn(record: RunRecord, env: LoopEnv, firstOfAgent: boolean): Effect.Effect<TurnOutcome, RunFailure> {
  // Data-first: `catchIf` in a pipe tells its forms apart by inspecting its arguments, a few times the cost of the catch itself.
  return Effect.catchIf(
    runTurn(record, env, firstOfAgent),
    (failure): failure is MaxTurnsExceededError => failure instanceof MaxTurnsExceededError,
    (failure) => recoverRunError('maxTurns', failure, record, env),
  );
}

/**
 * `agent_end` once the run has its checked final output, after the turn that made it, and once the
 * run is in its session (as the reference): a run whose final save fails ends with that failure,
 * and no hook hears the agent ended.
 */
function announceFinalOutput(agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<void, RunFailure> {
  const step = record.currentStep;
  if (step?.type !== 'next_step_final_output' || step.unchecked) return Effect.void;
  const ended = agentEnded(agent, step.output, record, env);
  // A max-turns handler's answer is saved with the run, and only then shown (items, stream).
  const held = record.heldFinalItem;
  record.heldFinalItem = undefined;
  const published = held === undefined ? ended : Effect.andThen(Effect.suspend(() => publish(held, record, env)), ended);
  const session = record.session;
  if (session === undefined) return published;
  const items = held === undefined ? record.generatedItems : [...record.generatedItems, held];
  const saved = Effect.tryPromise({ try: () => saveToSession(session, items, record.reasoningItemIdPolicy), catch: asRunFailure });
  return Effect.andThen(saved, published);
}

function agentAttributes(agent: Agent<any, any>): () => Record<string, unknown> {
  return () => {
    // Named without compiling the schema: a schema with no JSON form fails the turn, not its span.
    return { 'baton.agent.name': agent.name, 'baton.agent.output_type': outputTypeName(agent.outputType) };
  };
}

/** prepare → input guardrails (first turn) → model → classify → tools → resolve. */
function runTurn(record: RunRecord, env: LoopEnv, firstOfAgent: boolean): Effect.Effect<TurnOutcome, RunFailure> {
  return prepareTurn(record, env).pipe(
    Effect.flatMap((turn) => {
      const call = callModel(turn.model, turn.request, record, env);
      const modelCall = firstOfAgent ? Effect.andThen(agentStarted(turn.agent, inputToItems(turn.request.input), record, env), call) : call;
      const answered = record.currentTurn === 0 ? withInputGuardrails(modelCall, turn.agent, record, env) : modelCall;
      return Effect.flatMap(answered, (response) => {
        record.modelResponses.push(response);
        const promptTools = turn.request.prompt !== undefined && promptMaySupplyTools(turn.agent, { tools: turn.request.tools.length, handoffs: turn.request.handoffs.length });
        return flatMapNow(classified(() => classifyResponse(response, turn.agent, turn.tools, turn.handoffs, promptTools)), (processed) =>
          actOnResponse(processed, response, record, env, turn.tools),
        );
      });
    }),
    turnSpan(record, env, 1),
  );
}

/** The run's first model call, with the input guardrails: blocking ones before it, the others beside it. */
function withInputGuardrails(modelCall: Effect.Effect<ModelResponse, RunFailure>, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<ModelResponse, RunFailure> {
  const guardrails = [...env.inputGuardrails, ...agent.inputGuardrails];
  const args: InputGuardrailFunctionArgs<any> = { agent, input: record.originalInput, context: record.context };
  const steps = { runner: env.stepRunner, traced: env.traced, turn: record.currentTurn + 1 };
  return Effect.flatMap(runInputGuardrails(guardrails.filter((g) => g.runInParallel === false), args, record, steps), () =>
    withParallelGuardrails(modelCall, guardrails.filter((g) => g.runInParallel !== false), args, record, steps),
  );
}

/** A response the loop cannot act on (an approval request from an MCP server the agent lacks) fails the run. */
function classified(classify: () => ProcessedResponse): Effect.Effect<ProcessedResponse, RunFailure> {
  try {
    return Effect.succeed(classify());
  } catch (cause) {
    return Effect.fail(asRunFailure(cause));
  }
}

/** The turn's span; a resumed turn is the one that paused (its model call was already counted). */
function turnSpan(record: RunRecord, env: LoopEnv, offset: 0 | 1) {
  return span(env, 'baton.turn', () => ({ 'baton.agent': record.currentAgent.name, 'baton.turn': record.currentTurn + offset }));
}

/**
 * Picks an interrupted turn up where it stopped, without calling the model again: calls that
 * already have an output are not run again, decided approvals run or reject, undecided ones
 * pause the run again.
 */
function resumeInterruptedTurn(record: RunRecord, env: LoopEnv): Effect.Effect<TurnOutcome, RunFailure> {
  return Effect.gen(function* () {
    const response = record.modelResponses.at(-1);
    const paused = pausedTurnOf(record);
    record.currentStep = undefined;
    if (!response) return 'continue';
    // A resume refused before any tool ran (a decision that no longer fits its call) leaves the state paused as it was.
    const resumed = yield* resumedCalls(response, record, env).pipe(Effect.tapError(() => Effect.sync(() => paused.restore())));
    const outcomes = yield* executeToolRuns(resumed.runs, record.currentAgent, record, env, resumed.localRuns, resumed.processed.handoffRun?.call);
    return yield* resolveTurn(resumed.processed, outcomes, response, resumed.turnStart, record, env);
  }).pipe(turnSpan(record, env, 0));
}

/** The paused turn's calls still to run, checked against the decisions made since the pause; its approval items leave history. */
function resumedCalls(response: ModelResponse, record: RunRecord, env: LoopEnv) {
  return Effect.gen(function* () {
    const capabilities = yield* resolveCapabilities(record, env);
    const offered = { tools: capabilities.tools.length + record.currentAgent.getHostedTools().length, handoffs: capabilities.handoffs.length };
    const processed = yield* classified(() =>
      classifyResponse(response, record.currentAgent, capabilities.tools, capabilities.handoffs, promptMaySupplyTools(record.currentAgent, offered)),
    );
    const callIds = new Set([
      ...processed.toolRuns.map((run) => run.call.callId),
      ...processed.localRuns.map((run) => run.call.callId),
      ...processed.hostedApprovals.map((request) => request.item.callId),
    ]);
    const answered = new Set<string>();
    record.generatedItems = record.generatedItems.filter((item) => {
      if (item.type === 'tool_approval_item' && callIds.has(item.callId)) return false;
      if (item.type === 'tool_call_output_item') answered.add(item.rawItem.callId);
      return true;
    });
    const turnStart = Math.max(0, record.generatedItems.findIndex((item) => 'rawItem' in item && callIds.has((item.rawItem as { callId?: string }).callId ?? '')));
    primeResumedServerConversation(record);
    const localRuns = processed.localRuns.filter((run) => !answered.has(run.call.callId));
    // Decisions made since the pause are checked against the invocations they were made on.
    const screened = yield* screenCallIds(
      processed.toolRuns.filter((run) => !answered.has(run.call.callId)),
      record.currentAgent,
      record,
    );
    return { processed, runs: screened.runs, localRuns, turnStart };
  });
}

/**
 * What resuming a paused turn changes before any tool runs (its step, its approval items, what a
 * server-kept conversation has seen), and how to put it back: a resume refused there (a decision
 * that no longer fits its call) leaves the state paused, its interruptions still pending.
 */
function pausedTurnOf(record: RunRecord): { restore(): void } {
  const step = record.currentStep;
  const items = record.generatedItems;
  const conversation = record.serverConversation;
  const known = conversation === undefined ? undefined : { knownItems: conversation.knownItems, unsentKnown: conversation.unsentKnown };
  return {
    restore() {
      record.currentStep = step;
      record.generatedItems = items;
      if (conversation !== undefined && known !== undefined) {
        conversation.knownItems = known.knownItems;
        conversation.unsentKnown = known.unsentKnown;
      }
    },
  };
}

/** The server now knows its own output (and, chained by response id, the response); ignored handoff calls still need an answer there. */
function rememberServerState(processed: ProcessedResponse, response: ModelResponse, record: RunRecord, env: LoopEnv): void {
  const conversation = record.serverConversation;
  if (!conversation) return;
  // A conversation id is the chain: the response id is not sent beside it (as the reference; the API takes one or the other).
  if (conversation.conversationId === undefined) conversation.previousResponseId = response.responseId ?? conversation.previousResponseId;
  conversation.knownItems = record.generatedItems.length;
  conversation.unsentKnown = undefined;
  conversation.sentOwed = undefined;
  for (const call of processed.handoffRun?.ignoredCalls ?? []) {
    conversation.owedOutputs.push(functionCallResult(call.callId, call.name, IGNORED_HANDOFF_ANSWER));
  }
}

function actOnResponse(
  classified: ProcessedResponse,
  response: ModelResponse,
  record: RunRecord,
  env: LoopEnv,
  tools: PreparedTurn['tools'],
): Effect.Effect<TurnOutcome, RunFailure> {
  const agent = record.currentAgent;
  return flatMapNow(screenCallIds(classified.toolRuns, agent, record), (screened) =>
    flatMapNow(screenLocalCallIds(classified.localRuns, agent, record), (local) =>
      flatMapNow(screenIgnoredHandoffCalls(classified.handoffRun?.ignoredCalls ?? [], agent, record), () => {
        const kept = screened.skipped.size === 0 && local.skipped.size === 0 ? classified : withoutRepeats(classified, screened, local);
        // Client tool searches run once the response's calls have passed their checks.
        return flatMapNow(answerClientToolSearches(kept, tools, agent, record, env), (processed) => {
          const turnStart = record.generatedItems.length;
          return flatMapNow(enterHistory(processed.newItems, record, env), () => {
            rememberServerState(processed, response, record, env);
            // A tool that fails the run takes the turn's items with it: running the error's state again
            // asks the model again, instead of sending a call without its output (as the reference does).
            const outcomes = executeToolRuns(processed.toolRuns, agent, record, env, processed.localRuns, processed.handoffRun?.call).pipe(
              Effect.tapError(() => Effect.sync(() => void record.generatedItems.splice(turnStart))),
            );
            return Effect.flatMap(outcomes, (settled) => resolveTurn(processed, settled, response, turnStart, record, env));
          });
        });
      }),
    ),
  );
}

/** The response without the calls screening left out (repeats of an invocation already answered or running): their call items stay out of history. */
function withoutRepeats(
  classified: ProcessedResponse,
  screened: { runs: readonly ToolRun[]; skipped: ReadonlySet<unknown> },
  local: { runs: readonly LocalToolRun[]; skipped: ReadonlySet<unknown> },
): ProcessedResponse {
  const skipped = new Set<unknown>([...screened.skipped, ...local.skipped]);
  return { ...classified, toolRuns: [...screened.runs], localRuns: [...local.runs], newItems: classified.newItems.filter((item) => !skipped.has(item.rawItem)) };
}
