import * as Effect from 'effect/Effect';
import { UserError, type Tool, type ToolSearchCallItem, type ToolSearchOutputItem } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { JsonValue, StepCodec, StepRunner } from '../../../definitions/stepRunner.js';
import { toolSearchMatchKey, toolSearchRoutingKey, type ClientToolSearchAnswer } from '../../../definitions/internal/toolSearchLoading.js';
import type { RunFailure } from '../failures.js';
import { step } from './steps.js';
import { toJson } from './stepCodecs.js';

/**
 * A client tool search's answer as its step records it. The tools an executor loaded are live
 * objects (their `execute` is code), so the journal keeps what identifies each one, its routing key
 * (name, namespace, deferred or not; an MCP server's label); `loaded` is there only when the
 * executor ran in this process.
 */
interface JournaledSearch {
  readonly output: ToolSearchOutputItem;
  readonly tools: readonly string[];
  readonly loaded?: readonly Tool<any>[];
}

const journaledSearchCodec: StepCodec<JournaledSearch> = {
  encode: (value) => ({ output: toJson(value.output), tools: [...value.tools] }),
  decode: (json) => {
    const { output, tools } = json as { output: JsonValue; tools: JsonValue };
    return { output: output as unknown as ToolSearchOutputItem, tools: Array.isArray(tools) ? tools.map(String) : [] };
  },
};

/**
 * Runs a client tool search's executor as the call's `toolsearch:{callId}` step, so a durable run
 * replays its answer from the journal instead of asking the executor again (whose answer may have
 * changed). On replay the loaded tools are found again among `candidates` (the agent's tools and
 * those earlier searches loaded) by their routing keys; a key that no longer matches a tool fails
 * the run with a `UserError` naming it. A search without a call id is no step (it has no stable key).
 */
export function toolSearchStep(
  runner: StepRunner | undefined,
  call: ToolSearchCallItem,
  agent: Agent<any, any>,
  candidates: readonly Tool<any>[],
  answer: Effect.Effect<ClientToolSearchAnswer, RunFailure>,
): Effect.Effect<ClientToolSearchAnswer, RunFailure> {
  const callKey = toolSearchMatchKey(call);
  if (runner === undefined || callKey === undefined) return answer;
  const recorded = answer.pipe(
    Effect.map((live): JournaledSearch => ({ output: live.output, tools: live.runtimeTools.map((tool) => toolSearchRoutingKey(tool)!), loaded: live.runtimeTools })),
  );
  return step(runner, 'tool', () => `toolsearch:${callKey}`, journaledSearchCodec, recorded).pipe(
    Effect.flatMap((journaled) =>
      journaled.loaded !== undefined
        ? Effect.succeed({ output: journaled.output, runtimeTools: [...journaled.loaded] })
        : Effect.try({
            try: () => ({ output: journaled.output, runtimeTools: resolveLoaded(journaled.tools, candidates, agent, callKey) }),
            catch: (error) => error as UserError,
          }),
    ),
  );
}

function resolveLoaded(keys: readonly string[], candidates: readonly Tool<any>[], agent: Agent<any, any>, callKey: string): Tool<any>[] {
  return keys.map((key) => {
    const tool = candidates.find((candidate) => toolSearchRoutingKey(candidate) === key);
    if (tool === undefined) {
      throw new UserError(
        `Replaying client tool search ${callKey} of agent "${agent.name}": the recorded answer loaded the tool ${describe(key)}, which none of the agent's tools matches now. Keep that tool in the agent's tools (or in a namespace of them) so the durable run can resume.`,
      );
    }
    return tool;
  });
}

/** A routing key as a reader knows it: `namespace.name`, or the name. */
function describe(key: string): string {
  try {
    const parts = JSON.parse(key) as unknown[];
    if (parts[0] === 'namespaced') return `"${String(parts[1])}.${String(parts[2])}"`;
    return `"${String(parts.at(-1))}"`;
  } catch {
    return key;
  }
}
