import type { FunctionCallItem, ToolCallDetails } from '@baton/types';
import { callScopeOf } from './toolCallScope.js';

const neverAborted = new AbortController().signal;

/**
 * The details of a call made outside a run (`tool.invoke(runContext, input)` with no details, as
 * the reference allows): a call item of its own, a signal that never fires, and nowhere to stream.
 */
export function completeToolCallDetails(toolName: string, input: string, details: Partial<ToolCallDetails> | undefined): ToolCallDetails {
  // The run loop's own details are complete (checked first: two property reads, not a descriptor).
  if (details !== undefined && callScopeOf(details as ToolCallDetails)?.loopDetails === details) return details as ToolCallDetails;
  if (details?.toolCall && details.emit && hasSignal(details)) return details as ToolCallDetails;
  const toolCall: FunctionCallItem = details?.toolCall ?? {
    type: 'function_call',
    callId: `call_${Math.random().toString(36).slice(2, 12)}`,
    name: toolName,
    arguments: input,
  };
  return { ...details, toolCall, signal: details?.signal ?? neverAborted, emit: details?.emit ?? (async () => undefined) };
}

/** Whether `details` carries a signal, without reading it: the run loop's is made when first read. */
function hasSignal(details: Partial<ToolCallDetails>): boolean {
  const property = Object.getOwnPropertyDescriptor(details, 'signal');
  return property !== undefined && (property.get !== undefined || property.value !== undefined);
}
