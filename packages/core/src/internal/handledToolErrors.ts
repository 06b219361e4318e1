import type { ToolCallDetails } from '@baton/types';

/**
 * Errors a tool's error function turned into output for the model, keyed by the call's details,
 * so the runner can still report them (on `tool_stream_end_event`) although the call "succeeded".
 */
const handled = new WeakMap<ToolCallDetails, unknown>();

export function rememberHandledToolError(details: ToolCallDetails, error: unknown): void {
  handled.set(details, error);
}

export function handledToolErrorOf(details: ToolCallDetails): unknown {
  return handled.get(details);
}
