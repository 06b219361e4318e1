import * as Effect from 'effect/Effect';
import {
  ModelBehaviorError,
  RunToolCallItem,
  RunToolCallOutputItem,
  type AgentOutputItem,
  type ApplyPatchCallItem,
  type ApplyPatchTool,
  type ComputerTool,
  type ComputerUseCallItem,
  type ShellCallItem,
  type ShellTool,
} from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { isLocalTool, type LocalTool } from '../../../definitions/internal/localTools.js';
import type { ModelRunItem } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { RunFailure } from '../failures.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import type { LoopEnv } from './loopEnv.js';
import { executeApplyPatchCall } from './executeApplyPatchCall.js';
import { executeComputerCall } from './executeComputerCall.js';
import { executeShellCall } from './executeShellCall.js';

/** A call of a local tool (shell, apply-patch, computer) the SDK runs for the model. */
export type LocalToolRun =
  | { readonly kind: 'shell'; readonly call: ShellCallItem; readonly tool: ShellTool }
  | { readonly kind: 'apply_patch'; readonly call: ApplyPatchCallItem; readonly tool: ApplyPatchTool }
  | { readonly kind: 'computer'; readonly call: ComputerUseCallItem; readonly tool: ComputerTool<any, any> };

const CALL_TOOL = { shell_call: 'shell', apply_patch_call: 'apply_patch', computer_call: 'computer' } as const;

/**
 * Sorts a local tool's output item of a response: its call item goes to history, and a call the
 * host runs becomes a run. A call of a tool the agent lacks is the model's error (as on the
 * reference). A hosted shell's calls and outputs (OpenAI ran them) only enter history.
 * Returns undefined for any other item.
 */
export function classifyLocalCall(output: AgentOutputItem, agent: Agent<any, any>): { item: ModelRunItem; run?: LocalToolRun } | undefined {
  if (output.type === 'shell_call_output') return { item: new RunToolCallOutputItem(output, agent, output.output) };
  if (output.type !== 'shell_call' && output.type !== 'apply_patch_call' && output.type !== 'computer_call') return undefined;
  const kind = CALL_TOOL[output.type];
  const tool = agent.tools.find((t): t is LocalTool => isLocalTool(t) && t.type === kind);
  if (!tool) throw new ModelBehaviorError(`Model produced ${kind === 'shell' ? 'shell' : kind === 'apply_patch' ? 'apply_patch' : 'computer'} action without ${kind === 'apply_patch' ? 'an' : 'a'} ${kind} tool (agent "${agent.name}").`);
  const item = new RunToolCallItem(output, agent);
  if (tool.type === 'shell' && tool.environment !== undefined && tool.environment.type !== 'local') return { item };
  return { item, run: { kind, call: output, tool } as LocalToolRun };
}

/** Runs one local tool call: approval, then the tool, then its output item. */
export function executeLocalToolRun(run: LocalToolRun, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<ToolRunOutcome, RunFailure> {
  switch (run.kind) {
    case 'shell':
      return executeShellCall(run.call, run.tool, agent, record, env);
    case 'apply_patch':
      return executeApplyPatchCall(run.call, run.tool, agent, record, env);
    case 'computer':
      return executeComputerCall(run.call, run.tool, agent, record, env);
  }
}
