import * as Effect from 'effect/Effect';
import {
  ModelBehaviorError,
  ModelRefusalError,
  UserError,
  type ModelResponse,
  type RunToolApprovalItem,
} from '@baton/types';
import type { Agent, FunctionToolResult, ToolsToFinalOutputResult } from '../../../definitions/agent.js';
import type { RunFailure } from '../failures.js';
import { runItemsToInputItems, toSmartString } from '../../../state/internal/items.js';
import { answerHostedApprovals } from './hostedMcpApprovals.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { fromUserCode } from '../userCode.js';
import type { ProcessedResponse } from './classifyResponse.js';
import type { ToolRunOutcome } from './executeTools.js';
import { executeHandoff } from './handoff.js';
import type { LoopEnv } from './loopEnv.js';
import { handledRunError, recoverRunError } from './recoverRunError.js';
import { parseFinalOutputRedacted } from './finalOutputRedaction.js';
import { checkFinalOutput } from './checkFinalOutput.js';
import { stopAtToolNamesMatch } from '../../../definitions/internal/stopAtToolNames.js';
import { flatMapNow } from '../flatMapNow.js';
import { enterHistory } from './enterHistory.js';

/** Whether the loop goes on after this turn. */
export type TurnOutcome = 'continue' | 'done';

/**
 * Decides what a turn led to, in the reference's order: pending approvals pause the run; a handoff
 * switches agents; the agent's tool-use behaviour may turn a tool output into the final output;
 * tool calls ask the model again; otherwise the last message is the final output.
 */
export function resolveTurn(
  processed: ProcessedResponse,
  outcomes: readonly ToolRunOutcome[],
  response: ModelResponse,
  turnStart: number,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<TurnOutcome, RunFailure> {
  return Effect.suspend(() => {
    // Its tools have settled: what follows decides the next step.
    record.turnInProgress = false;
    const interruptions: RunToolApprovalItem[] = [];
    for (const outcome of outcomes) {
      if (outcome.type === 'approval') interruptions.push(outcome.item);
      else if (outcome.type === 'nested_interruption') interruptions.push(...outcome.interruptions);
    }
    const answeredBefore = record.generatedItems.length;
    return flatMapNow(answerHostedApprovals(processed.hostedApprovals, record, env), (answers) =>
      flatMapNow(enterHistory(answers, record, env), () => {
        interruptions.push(...answers);
        if (interruptions.length > 0) {
          record.currentStep = { type: 'next_step_interruption', interruptions };
          return Effect.succeed('done' as const);
        }
        // A handoff comes before the tool-use behaviour (as on the reference): a tool that would end the
        // run (stop_on_first_tool, stopAtToolNames) does not keep the turn's handoff from happening.
        if (processed.handoffRun) {
          // The handoff is done once the new agent is current: what is left is its turn (as the
          // reference steps on), so a state taken before that turn (out of turns, cancelled) is one to run again.
          return Effect.map(executeHandoff(processed.handoffRun, turnStart, record, env), () => runAgain(record));
        }
        return afterTools(processed, outcomes, response, turnStart, answeredBefore, record, env);
      }),
    );
  });
}

/** Marks the turn as one to run again (the loop asks the model again) and says so. */
function runAgain(record: RunRecord): 'continue' {
  record.currentStep = { type: 'next_step_run_again' };
  return 'continue';
}

/** With no pause and no handoff: the tool-use behaviour may end the run; else more work asks the model again; else the final output. */
function afterTools(
  processed: ProcessedResponse,
  outcomes: readonly ToolRunOutcome[],
  response: ModelResponse,
  turnStart: number,
  answeredBefore: number,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<TurnOutcome, RunFailure> {
  const agent = record.currentAgent;
  const toolResults: FunctionToolResult[] = [];
  for (const outcome of outcomes) {
    // A program's calls (Programmatic Tool Calling) feed the program, never the final output.
    if (outcome.type === 'output' && outcome.tool && !calledByProgram(outcome.item.rawItem)) toolResults.push({ type: 'function_output', tool: outcome.tool, output: outcome.output, runItem: outcome.item });
  }
  const decided = toolResults.length > 0 ? toolUseDecision(agent, toolResults, record, env) : Effect.succeed<ToolsToFinalOutputResult>({ isFinalOutput: false });
  return flatMapNow(decided, (decision): Effect.Effect<TurnOutcome, RunFailure> => {
    if (decision.isFinalOutput) return Effect.as(checkFinalOutput(decision.finalOutput, agent, response, record, env, turnStart), 'done' as const);
    // Approval answers for a remote MCP server go back to the model, which then runs (or skips) the call.
    const searched = (processed.answeredToolSearches ?? 0) > 0;
    const moreWork = processed.toolRuns.length > 0 || processed.localRuns.length > 0 || record.generatedItems.length > answeredBefore || searched;
    if (!moreWork && processed.refusal === undefined && agent.outputType !== 'text' && !processed.messageText) {
      // No answer (no message, or an empty one) for a structured output type: an invalid-output
      // handler may answer instead of another model turn; without one the model is asked again.
      const error = new ModelBehaviorError('Model returned no final output for the structured output type.');
      return Effect.map(handledRunError('invalidFinalOutput', error, record, env), (handled) => (handled === 'done' ? 'done' : runAgain(record)));
    }
    if (moreWork || processed.messageText === undefined) return Effect.succeed(runAgain(record));
    if (processed.refusal !== undefined) return recoverRunError('modelRefusal', new ModelRefusalError(processed.refusal), record, env);
    return Effect.flatMap(parseFinalOutputRedacted(agent, processed.messageText), (parsed) =>
      parsed.ok ? Effect.as(checkFinalOutput(parsed.value, agent, response, record, env), 'done' as const) : recoverRunError('invalidFinalOutput', parsed.error, record, env),
    );
  });
}

function toolUseDecision(
  agent: Agent<any, any>,
  results: FunctionToolResult[],
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<ToolsToFinalOutputResult, RunFailure> {
  const behavior = agent.toolUseBehavior;
  if (behavior === 'run_llm_again') return Effect.succeed({ isFinalOutput: false });
  if (behavior === 'stop_on_first_tool') return Effect.succeed({ isFinalOutput: true, finalOutput: toSmartString(results[0]!.output) });
  if (typeof behavior === 'function') {
    return fromUserCode(env, () => behavior(record.context, results)).pipe(
      Effect.flatMap((decision) =>
        typeof decision === 'object' && decision !== null && typeof decision.isFinalOutput === 'boolean'
          ? Effect.succeed(decision)
          : Effect.fail(new UserError(`Agent "${agent.name}": toolUseBehavior must return { isFinalOutput, finalOutput? }.`)),
      ),
    );
  }
  const hit = results.find((r) => stopAtToolNamesMatch(behavior.stopAtToolNames, r.tool));
  return Effect.succeed(hit ? { isFinalOutput: true, finalOutput: toSmartString(hit.output) } : { isFinalOutput: false });
}

/** A result a Programmatic Tool Calling program's call produced (local tool results have no caller). */
function calledByProgram(rawItem: object): boolean {
  return 'caller' in rawItem && (rawItem as { caller?: { type?: string } }).caller?.type === 'program';
}
