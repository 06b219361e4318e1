import * as Effect from 'effect/Effect';
import { annotate } from './span.js';
import { flatMapNow } from '../flatMapNow.js';
import { RunToolCallOutputItem, type FunctionCallItem, type FunctionCallResultItem, type FunctionTool, type ToolOutputCustomData } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { functionCallResult, itemEvent, toSmartString, toolCallOutput } from '../../../state/internal/items.js';
import { capToolOutput } from './capToolOutput.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import type { LoopEnv } from './loopEnv.js';

/** A call's output item: capped at `limits.maxToolOutputChars`, announced, and returned for history (which the batch fills in call order). */
export function commitOutput(
  call: FunctionCallItem,
  tool: FunctionTool<any> | undefined,
  output: unknown,
  agent: Agent<any, any>,
  _record: RunRecord,
  env: LoopEnv,
  handledError?: unknown,
  customData?: ToolOutputCustomData,
): Effect.Effect<ToolRunOutcome> {
  const capped = capToolOutput(output, toolCallOutput(output), env.limits.maxToolOutputChars);
  const item = new RunToolCallOutputItem(outputRawItem(call, capped.output), agent, capped.value, customData);
  // The error an error function answered for: the developer's, never sent to the model.
  if (handledError !== undefined) Object.defineProperty(item, 'error', { value: handledError, enumerable: false });
  return flatMapNow(annotate(env, () => ({ 'baton.tool.output': toSmartString(capped.value) })), () =>
    Effect.as(env.emit(itemEvent(item)), { type: 'output' as const, tool, output: capped.value, item }),
  );
}

/** The raw output item answering `call` with `output` (what the model is sent). */
export function outputRawItem(call: FunctionCallItem, output: FunctionCallResultItem['output']): FunctionCallResultItem {
  const raw = functionCallResult(call.callId, call.name, '', call.namespace);
  raw.output = output;
  if (call.caller) raw.caller = call.caller;
  return raw;
}

/** The output of a call the run's cancellation ended (or never started): incomplete, `aborted`, as the reference records it. */
export function commitAborted(call: FunctionCallItem, tool: FunctionTool<any> | undefined, agent: Agent<any, any>, env: LoopEnv): Effect.Effect<ToolRunOutcome & { type: 'output' }> {
  const raw = functionCallResult(call.callId, call.name, 'aborted', call.namespace);
  raw.status = 'incomplete';
  if (call.caller) raw.caller = call.caller;
  const item = new RunToolCallOutputItem(raw, agent, 'aborted');
  return env.emit(itemEvent(item)).pipe(Effect.as({ type: 'output' as const, tool, output: 'aborted', item }));
}
