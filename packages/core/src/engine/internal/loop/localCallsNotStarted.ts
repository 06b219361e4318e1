import * as Effect from 'effect/Effect';
import { RunToolCallOutputItem, type ApplyPatchCallResultItem, type ShellCallResultItem } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { LocalToolRun } from './localToolRuns.js';
import type { LoopEnv } from './loopEnv.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import { commitLocalOutput } from './localToolOutput.js';
import { abortedComputerCall } from './executeComputerCall.js';

/**
 * The output of a local tool call the turn's cancellation kept from starting, as the reference
 * records it: a shell call times out with `aborted` as its stderr (incomplete), an apply-patch call
 * fails with `aborted`, a computer call answers with the placeholder image (incomplete). History
 * then has an output for every call, so a resumed run neither runs it nor sends it unanswered.
 */
export function localCallNotStarted(run: LocalToolRun, agent: Agent<any, any>, env: LoopEnv): Effect.Effect<ToolRunOutcome> {
  switch (run.kind) {
    case 'shell': {
      const caller = run.call.caller ? { caller: run.call.caller } : {};
      const raw: ShellCallResultItem = {
        type: 'shell_call_output',
        callId: run.call.callId,
        status: 'incomplete',
        output: [{ stdout: '', stderr: 'aborted', outcome: { type: 'timeout' } }],
        ...caller,
      };
      return commitLocalOutput(new RunToolCallOutputItem(raw, agent, 'aborted'), env);
    }
    case 'apply_patch': {
      const caller = run.call.caller ? { caller: run.call.caller } : {};
      const raw: ApplyPatchCallResultItem = { type: 'apply_patch_call_output', callId: run.call.callId, status: 'failed', output: 'aborted', ...caller };
      return commitLocalOutput(new RunToolCallOutputItem(raw, agent, 'aborted'), env);
    }
    case 'computer':
      return abortedComputerCall(run.call, agent, env);
  }
}
