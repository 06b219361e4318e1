/**
 * What the instant models answer, shared by both SDKs' hand-written `Model`s. The model is
 * stateless: it reads the request input and decides, so one instance serves any number of runs.
 * Every call builds fresh objects, as a real provider would (a run may keep them).
 */
import { TOOLSET_CALLS_PER_TURN, toolsetCalls } from './toolsetScript.js';

export const STEP_TOOL = 'step';
/** The tool that needs approval in the serialization scenario: calling it pauses the run. */
export const APPROVAL_TOOL = 'approve_step';
export const FINAL_TEXT = 'done';
export const DELTA_TEXT = 'tok ';

/**
 * `tool-loop`: `toolTurns` turns calling the step tool, then a final message. `pause`: the same
 * `toolTurns` turns, then a call to the approval tool (the run pauses there). `text`: one message
 * of `deltas` text deltas.
 */
/** `answerAfterIo`: the model answers on a later turn of the event loop, as a response read from a socket would. */
export type ScriptPlan =
  | { kind: 'tool-loop'; toolTurns: number; answerAfterIo?: boolean }
  | { kind: 'pause'; toolTurns: number }
  | { kind: 'text'; deltas: number }
  /** `toolTurns` turns each calling `TOOLSET_CALLS_PER_TURN` tools of the set (`toolsetScript.ts`), then a final message. */
  | { kind: 'toolset'; toolTurns: number };

export interface ScriptFunctionCall {
  type: 'function_call';
  id: string;
  callId: string;
  name: string;
  arguments: string;
  status: 'completed';
}

export interface ScriptMessage {
  type: 'message';
  id: string;
  role: 'assistant';
  status: 'completed';
  content: Array<{ type: 'output_text'; text: string }>;
}

export type ScriptItem = ScriptFunctionCall | ScriptMessage;

export const USAGE = { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 } as const;

let responseCounter = 0;

export function nextResponseId(): string {
  responseCounter += 1;
  return `resp_${responseCounter}`;
}

/** How many tool results the input already holds: the number of tool turns done so far. */
export function toolResultsIn(input: string | ReadonlyArray<unknown>): number {
  if (typeof input === 'string') return 0;
  let count = 0;
  for (const item of input) {
    if ((item as { type?: unknown }).type === 'function_call_result') count += 1;
  }
  return count;
}

/** The output of the next response. */
export function nextOutput(plan: ScriptPlan, input: string | ReadonlyArray<unknown>, responseId: string): ScriptItem[] {
  if (plan.kind === 'text') return [message(responseId, DELTA_TEXT.repeat(plan.deltas))];
  if (plan.kind === 'toolset') {
    const turnsDone = toolResultsIn(input) / TOOLSET_CALLS_PER_TURN;
    return turnsDone < plan.toolTurns ? toolsetCalls(responseId, turnsDone + 1) : [message(responseId, FINAL_TEXT)];
  }
  const done = toolResultsIn(input);
  if (done < plan.toolTurns) return [functionCall(responseId, STEP_TOOL, done + 1)];
  return plan.kind === 'pause' ? [functionCall(responseId, APPROVAL_TOOL, done + 1)] : [message(responseId, FINAL_TEXT)];
}

/** The text deltas a streamed response yields before `response_done`. */
export function deltasFor(plan: ScriptPlan, output: ScriptItem[]): string[] {
  if (plan.kind === 'text') return new Array<string>(plan.deltas).fill(DELTA_TEXT);
  const last = output[output.length - 1];
  return last?.type === 'message' ? last.content.map((part) => part.text) : [];
}

function functionCall(responseId: string, name: string, step: number): ScriptFunctionCall {
  return { type: 'function_call', id: `fc_${responseId}`, callId: `call_${responseId}`, name, arguments: `{"step":${step}}`, status: 'completed' };
}

export function message(responseId: string, text: string): ScriptMessage {
  return { type: 'message', id: `msg_${responseId}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
}
