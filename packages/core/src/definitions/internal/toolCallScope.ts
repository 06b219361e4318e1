import type { ToolCallDetails } from '@baton/types';

/**
 * What the run keeps with one tool call, beside the details the tool sees: the configuration of
 * the run that made the call (a nested agent-tool run inherits its provider and policies — per
 * call, so other runs sharing the context cannot overwrite it), and an error the tool's error
 * function turned into output (still reported on `tool_stream_end_event`). It lives on the call's
 * details object, created with the call, not in a table shared by every run.
 */
export interface ToolCallScope {
  /** The run's `RunConfig`, untyped here: tools sit below the run configuration (which names agents). */
  readonly runConfig: object;
  handledError?: unknown;
  /** Whether the error function that answered was the tool's own (traces show its error only then). */
  handledByCustomFunction?: boolean;
}

const SCOPE = Symbol('baton.toolCallScope');

type Scoped = ToolCallDetails & { [SCOPE]?: ToolCallScope };

/** Attaches the call's scope (not enumerable, so the details the tool sees look unchanged). */
export function attachCallScope(details: ToolCallDetails, scope: ToolCallScope): void {
  Object.defineProperty(details, SCOPE, { value: scope, enumerable: false });
}

export function callScopeOf(details: ToolCallDetails | undefined): ToolCallScope | undefined {
  return (details as Scoped | undefined)?.[SCOPE];
}

/** Records that the tool's error function answered the model instead of failing the call. */
export function rememberHandledToolError(details: ToolCallDetails, error: unknown, byCustomFunction = false): void {
  const scope = callScopeOf(details);
  if (!scope) return;
  scope.handledError = error;
  scope.handledByCustomFunction = byCustomFunction;
}
