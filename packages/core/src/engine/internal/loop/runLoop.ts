import * as Clock from 'effect/Clock';
import * as Effect from 'effect/Effect';
import { agentSpan, span } from './span.js';
import { agentEnded, agentStarted } from './lifecycleHooks.js';
import type { Agent } from '../../../definitions/agent.js';
import { MaxTurnsExceededError, type InputGuardrailFunctionArgs, type ModelResponse } from '@baton/types';
import { asRunFailure, type RunFailure } from '../failures.js';
import { functionCallResult, inputToItems, itemEvent } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { callModel } from './callModel.js';
import { classifyResponse, type ProcessedResponse } from './classifyResponse.js';
import { executeToolRuns } from './executeTools.js';
import { disposeComputersUnlessPaused } from './computerLifecycle.js';
import { answerClientToolSearches } from './clientToolSearch.js';
import { screenCallIds, screenIgnoredHandoffCalls } from './callIdScreening.js';
import { screenLocalCallIds } from './localCallIdScreening.js';
import { runInputGuardrails, withParallelGuardrails } from './guardrails.js';
import type { LoopEnv } from './loopEnv.js';
import { prepareTurn, resolveCapabilities, type PreparedTurn } from './prepareTurn.js';
import { finish, resolveTurn, type TurnOutcome } from './resolveTurn.js';
import { recoverRunError } from './recoverRunError.js';
import { step as runStep } from './steps.js';
import { stringCodec } from './stepCodecs.js';
import { randomUuid } from '../../../definitions/internal/uuid.js';
import { primeResumedServerConversation } from './resumedServerConversation.js';
import { promptMaySupplyTools } from './promptSuppliedTools.js';

const runIdKey = () => 'id:run';
const newRunId = Effect.sync(randomUuid);

const EMPTY_RESPONSE: ModelResponse = { output: [], usage: { requests: 0 } };

/**
 * The run loop: resume an interrupted turn if the state holds one, then run turns until one
 * produces a final output or pauses for approval. Each phase updates the run's one record.
 */
export function runLoop(record: RunRecord, env: LoopEnv): Effect.Effect<void, RunFailure> {
  return Effect.gen(function* () {
    // Approval expiry reads the run's clock (TestClock in an Effect test).
    record.context.useClock(yield* Clock.Clock);
    if (record.runId === undefined) record.runId = yield* runStep(env.stepRunner, 'id', runIdKey, stringCodec, newRunId);
    const step = record.currentStep;
    if (step?.type === 'next_step_final_output') {
      // A state that already has its answer (or whose output check failed): check it again, no model call.
      const agent = record.currentAgent;
      return yield* finish(step.output, agent, record.modelResponses.at(-1) ?? EMPTY_RESPONSE, record, env).pipe(
        Effect.andThen(announceFinalOutput(agent, record, env)),
        agentSpan(agentAttributes(agent)),
      );
    }
    let resuming = step?.type === 'next_step_interruption';
    while ((yield* agentTurns(record, env, resuming)) === 'continue') resuming = false;
  }).pipe(Effect.ensuring(env.mcpConnections.closeAll), Effect.ensuring(disposeComputersUnlessPaused(record)), span('baton.run'));
}

/**
 * One agent's consecutive turns, inside that agent's span: until the run ends, pauses, or hands
 * off (the next agent gets a span of its own).
 */
function agentTurns(record: RunRecord, env: LoopEnv, resuming: boolean): Effect.Effect<TurnOutcome, RunFailure> {
  const agent = record.currentAgent;
  return Effect.gen(function* () {
    let outcome: TurnOutcome = resuming ? yield* resumeInterruptedTurn(record, env) : 'continue';
    let first = !resuming;
    while (outcome === 'continue' && record.currentAgent === agent) {
      outcome = yield* runTurn(record, env, first).pipe(
        Effect.catchIf(
          (failure): failure is MaxTurnsExceededError => failure instanceof MaxTurnsExceededError,
          (failure) => recoverRunError('maxTurns', failure, record, env),
        ),
      );
      first = false;
    }
    if (outcome === 'done') yield* announceFinalOutput(record.currentAgent, record, env);
    return outcome;
  }).pipe(agentSpan(agentAttributes(agent)));
}

/** `agent_end` once the run has its checked final output, after the turn that made it (as the reference). */
function announceFinalOutput(agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<void> {
  const step = record.currentStep;
  return step?.type === 'next_step_final_output' && !step.unchecked ? agentEnded(agent, step.output, record, env) : Effect.void;
}

function agentAttributes(agent: Agent<any, any>): () => Record<string, unknown> {
  return () => {
    const output = agent.getSerializedOutputType();
    return { 'baton.agent.name': agent.name, 'baton.agent.output_type': output === 'text' ? 'text' : output.name };
  };
}

/** prepare → input guardrails (first turn) → model → classify → tools → resolve. */
function runTurn(record: RunRecord, env: LoopEnv, firstOfAgent: boolean): Effect.Effect<TurnOutcome, RunFailure> {
  return Effect.gen(function* () {
    const turn = yield* prepareTurn(record, env);
    const call = callModel(turn.model, turn.request, record, env);
    const modelCall = firstOfAgent ? Effect.andThen(agentStarted(turn.agent, inputToItems(turn.request.input), record, env), call) : call;
    let response: ModelResponse;
    if (record.currentTurn === 0) {
      const guardrails = [...env.inputGuardrails, ...turn.agent.inputGuardrails];
      const args: InputGuardrailFunctionArgs<any> = { agent: turn.agent, input: record.originalInput, context: record.context };
      const steps = { runner: env.stepRunner, turn: record.currentTurn + 1 };
      yield* runInputGuardrails(guardrails.filter((g) => g.runInParallel === false), args, record, steps);
      response = yield* withParallelGuardrails(modelCall, guardrails.filter((g) => g.runInParallel !== false), args, record, steps);
    } else {
      response = yield* modelCall;
    }
    record.modelResponses.push(response);
    const promptTools = turn.request.prompt !== undefined && promptMaySupplyTools(turn.agent, { tools: turn.request.tools.length, handoffs: turn.request.handoffs.length });
    const processed = yield* classified(() => classifyResponse(response, turn.agent, turn.tools, turn.handoffs, promptTools));
    return yield* actOnResponse(processed, response, record, env, turn.tools);
  }).pipe(turnSpan(record, 1));
}

/** A response the loop cannot act on (an approval request from an MCP server the agent lacks) fails the run. */
function classified(classify: () => ProcessedResponse): Effect.Effect<ProcessedResponse, RunFailure> {
  return Effect.try({ try: classify, catch: asRunFailure });
}

/** The turn's span; a resumed turn is the one that paused (its model call was already counted). */
function turnSpan(record: RunRecord, offset: 0 | 1) {
  return span('baton.turn', () => ({ 'baton.agent': record.currentAgent.name, 'baton.turn': record.currentTurn + offset }));
}

/**
 * Picks an interrupted turn up where it stopped, without calling the model again: calls that
 * already have an output are not run again, decided approvals run or reject, undecided ones
 * pause the run again.
 */
function resumeInterruptedTurn(record: RunRecord, env: LoopEnv): Effect.Effect<TurnOutcome, RunFailure> {
  return Effect.gen(function* () {
    const response = record.modelResponses.at(-1);
    record.currentStep = undefined;
    if (!response) return 'continue';
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
    const remaining = { ...processed, toolRuns: processed.toolRuns.filter((run) => !answered.has(run.call.callId)) };
    const localRuns = processed.localRuns.filter((run) => !answered.has(run.call.callId));
    // Decisions made since the pause are checked against the invocations they were made on.
    const screened = yield* screenCallIds(remaining.toolRuns, record.currentAgent, record);
    const outcomes = yield* executeToolRuns(screened.runs, record.currentAgent, record, env, localRuns);
    return yield* resolveTurn(processed, outcomes, response, turnStart, record, env);
  }).pipe(turnSpan(record, 0));
}

/** The server now knows its own output; ignored handoff calls still need an answer there. */
function rememberServerState(processed: ProcessedResponse, response: ModelResponse, record: RunRecord, env: LoopEnv): void {
  const conversation = record.serverConversation;
  if (!conversation) return;
  conversation.previousResponseId = response.responseId ?? conversation.previousResponseId;
  conversation.knownItems = record.generatedItems.length;
  conversation.unsentKnown = undefined;
  for (const call of processed.handoffRun?.ignoredCalls ?? []) {
    conversation.owedOutputs.push(functionCallResult(call.callId, call.name, 'Multiple handoffs detected, ignoring this one.'));
  }
}

function actOnResponse(
  classified: ProcessedResponse,
  response: ModelResponse,
  record: RunRecord,
  env: LoopEnv,
  tools: PreparedTurn['tools'],
): Effect.Effect<TurnOutcome, RunFailure> {
  return Effect.gen(function* () {
    const screened = yield* screenCallIds(classified.toolRuns, record.currentAgent, record);
    const local = yield* screenLocalCallIds(classified.localRuns, record.currentAgent, record);
    yield* screenIgnoredHandoffCalls(classified.handoffRun?.ignoredCalls ?? [], record.currentAgent, record);
    const skipped = new Set<unknown>([...screened.skipped, ...local.skipped]);
    const kept: ProcessedResponse =
      skipped.size === 0
        ? classified
        : { ...classified, toolRuns: screened.runs, localRuns: local.runs, newItems: classified.newItems.filter((item) => !skipped.has(item.rawItem)) };
    // Client tool searches run once the response's calls have passed their checks.
    const processed = yield* answerClientToolSearches(kept, tools, record.currentAgent, record, env.stepRunner);
    const turnStart = record.generatedItems.length;
    for (const item of processed.newItems) {
      record.generatedItems.push(item);
      yield* env.emit(itemEvent(item));
    }
    rememberServerState(processed, response, record, env);
    // A tool that fails the run takes the turn's items with it: running the error's state again
    // asks the model again, instead of sending a call without its output (as the reference does).
    const outcomes = yield* executeToolRuns(processed.toolRuns, record.currentAgent, record, env, processed.localRuns).pipe(
      Effect.tapError(() => Effect.sync(() => void record.generatedItems.splice(turnStart))),
    );
    return yield* resolveTurn(processed, outcomes, response, turnStart, record, env);
  });
}
