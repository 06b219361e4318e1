import type { AgentInputItem, FunctionCallResultItem } from '@baton/types';
import type { RecordedModelCall } from './scriptedSteps.js';

/** The input a recorded model call received, as protocol items (a string becomes a user message). */
export function inputOf(call: RecordedModelCall | undefined): AgentInputItem[] {
  if (!call) throw new Error('no such model call');
  const input = call.request.input;
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
}

/** The tool results a recorded model call received. */
export function toolResultsOf(call: RecordedModelCall | undefined): FunctionCallResultItem[] {
  return inputOf(call).filter((item): item is FunctionCallResultItem => item.type === 'function_call_result');
}

/** The text of a tool result (text parts joined). */
export function outputText(item: FunctionCallResultItem | undefined): string {
  if (!item) throw new Error('no such function_call_result');
  const output = item.output;
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part) => (part.type === 'text' || part.type === 'input_text' ? part.text : '')).join('');
  return output.type === 'text' ? output.text : '';
}

/** The text the model received as the result of call `callId`. */
export function resultText(call: RecordedModelCall | undefined, callId: string): string {
  return outputText(toolResultsOf(call).find((item) => item.callId === callId));
}
