import * as Effect from 'effect/Effect';
import type { Computer, ComputerTool } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { disposeResolvedComputers, resolveComputer } from '../../../definitions/internal/computerInstances.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { RunFailure } from '../failures.js';
import { fromUserCode } from '../userCode.js';
import type { LoopEnv } from './loopEnv.js';

/**
 * The computers of the agent's computer tools for this run, made (and `initRun`) before the turn's
 * model call: the model is told the display of the computer the run uses.
 */
export function agentComputers(agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<ReadonlyMap<ComputerTool<any, any>, Computer>, RunFailure> {
  const tools = agent.tools.filter((t): t is ComputerTool<any, any> => t.type === 'computer');
  if (tools.length === 0) return Effect.succeed(new Map());
  return fromUserCode(env, async () => new Map(await Promise.all(tools.map(async (tool) => [tool, await resolveComputer(tool, record.context)] as const))));
}

/**
 * When a run ends (completed or failed, not paused for approval), the computers its initializers
 * made are disposed; a paused run keeps them until the resumed run ends.
 */
export function disposeComputersUnlessPaused(record: RunRecord): Effect.Effect<void> {
  return Effect.suspend(() =>
    record.currentStep?.type === 'next_step_interruption' ? Effect.void : Effect.promise(() => disposeResolvedComputers(record.context)),
  );
}
