import * as Effect from 'effect/Effect';
import { RunToolSearchOutputItem, type FunctionTool, type RunContextContract, type Tool, type ToolSearchCallItem } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import {
  answerClientToolSearch,
  clientToolSearchToolOf,
  toolSearchExecution,
  toolSearchMatchKey,
} from '../../../definitions/internal/toolSearchLoading.js';
import type { ModelRunItem } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { recordToolSearchRuntimeTools, toolSearchRuntimeTools } from '../../../state/internal/toolSearchRuntime.js';
import type { RunFailure } from '../failures.js';
import { fromUserCode } from '../userCode.js';
import type { ProcessedResponse } from './classifyResponse.js';
import type { LoopEnv } from './loopEnv.js';
import { toolSearchStep } from './toolSearchSteps.js';

/**
 * The client half of tool search: each `tool_search_call` the SDK must answer (client execution,
 * or no execution stated while the agent has a client search) and that the response does not
 * answer itself gets a `tool_search_output` right after it, from the tool's executor or the
 * built-in loader. Tools an executor loaded join the agent's tools from the next turn on; the
 * model is asked again with the answer in its input. With a step runner each answer is a step
 * (`toolSearchStep`), replayed from the journal.
 */
export function answerClientToolSearches(
  processed: ProcessedResponse,
  tools: readonly FunctionTool<any>[],
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<ProcessedResponse, RunFailure> {
  const searchTool = clientToolSearchToolOf(agent.tools);
  const unanswered = unansweredClientSearches(processed.newItems, searchTool !== undefined);
  // Most turns have no search to answer: no generator for them.
  if (unanswered.size === 0) return Effect.succeed(processed);
  return Effect.gen(function* () {
    const newItems: ModelRunItem[] = [];
    const loaded: Tool<any>[] = [];
    for (const item of processed.newItems) {
      newItems.push(item);
      if (item.type !== 'tool_search_call_item' || !unanswered.has(item.rawItem)) continue;
      const call = item.rawItem;
      const available = [...tools, ...agent.getHostedTools(), ...loaded.filter((tool) => !tools.includes(tool as FunctionTool<any>))];
      const asked = fromUserCode(env, () => answerClientToolSearch({ agent, call, searchTool, tools: available, runContext: record.context as RunContextContract<any> }));
      // A durable run journals the answer (the loaded tools by name) and replays it from there.
      const answer = yield* toolSearchStep(env.stepRunner, call, agent, [...available, ...toolSearchRuntimeTools(record, agent)], asked);
      recordToolSearchRuntimeTools(record, agent, toolSearchMatchKey(call), answer.runtimeTools);
      loaded.push(...answer.runtimeTools);
      newItems.push(new RunToolSearchOutputItem(answer.output, agent));
    }
    return { ...processed, newItems, answeredToolSearches: unanswered.size };
  });
}

/**
 * The client searches in a response without an output of their own in it: an output answers the
 * call with its call id, or (without one) the oldest unanswered call; a server output answers none.
 */
function unansweredClientSearches(items: readonly ModelRunItem[], agentSearchesOnClient: boolean): Set<ToolSearchCallItem> {
  const pending: ToolSearchCallItem[] = [];
  const byKey = new Map<string, ToolSearchCallItem>();
  const answered = new Set<ToolSearchCallItem>();
  for (const item of items) {
    if (item.type === 'tool_search_call_item') {
      const execution = toolSearchExecution(item.rawItem);
      if (execution !== 'client' && !(execution === undefined && agentSearchesOnClient)) continue;
      pending.push(item.rawItem);
      const key = toolSearchMatchKey(item.rawItem);
      if (key !== undefined) byKey.set(key, item.rawItem);
    } else if (item.type === 'tool_search_output_item' && toolSearchExecution(item.rawItem) !== 'server') {
      const key = toolSearchMatchKey(item.rawItem);
      const call = key !== undefined ? byKey.get(key) : pending[0];
      if (!call) continue;
      answered.add(call);
      pending.splice(pending.indexOf(call), 1);
    }
  }
  return new Set(pending.filter((call) => !answered.has(call)));
}

/** The agent's tools with those its client tool searches loaded (enabled ones, once each). */
export function withToolSearchRuntimeTools(
  agent: Agent<any, any>,
  tools: readonly FunctionTool<any>[],
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<readonly FunctionTool<any>[], RunFailure> {
  const loaded = toolSearchRuntimeTools(record, agent).filter((tool): tool is FunctionTool<any> => tool.type === 'function' && !tools.includes(tool));
  if (loaded.length === 0) return Effect.succeed(tools);
  return fromUserCode(env, () => Promise.all(loaded.map((tool) => tool.isEnabled(record.context, agent)))).pipe(
    Effect.map((enabled) => [...tools, ...loaded.filter((_, i) => enabled[i])]),
  );
}
