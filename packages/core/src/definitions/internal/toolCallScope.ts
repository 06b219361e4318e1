import type { ToolCallDetails } from '@baton/types';
import type { ReadToolInput } from './preparedToolInput.js';

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
  /** The details the run loop made for the call (complete: a tool need not fill them in again). */
  loopDetails?: ToolCallDetails;
  handledError?: unknown;
  /** Whether the error function that answered was the tool's own (traces show its error only then). */
  handledByCustomFunction?: boolean;
  /** The arguments as `execute` received them, kept only for a tool with a `customDataExtractor` (which is given them). */
  parsedInput?: { readonly value: unknown };
  /**
   * The call's arguments as its tool read them before asking about approval (`PREPARE_INPUT`): the
   * tool that read them, from this input, takes them once instead of validating again.
   */
  preparedInput?: PreparedToolInput | undefined;
}

/** Arguments a tool's input preparer read (`preparedToolInput.ts`), for that tool's next invocation with that input. */
export interface PreparedToolInput {
  readonly input: string;
  readonly preparer: object;
  readonly read: ReadToolInput;
}

/**
 * The key the scope is kept under on the details: a symbol, so `Object.keys`, JSON and logs never
 * show it (the reference keeps its own per-call callbacks on the details the same way), written in
 * the literal that makes the details. A spread copy keeps it, so details a tool passes on to another
 * tool still belong to the run. (Not `Object.defineProperty`: measured, that was 3 % of a turn.)
 */
export const CALL_SCOPE: unique symbol = Symbol('baton.toolCallScope');

/** Details the run loop made: the call's scope rides along. */
export type ScopedToolCallDetails = ToolCallDetails & { [CALL_SCOPE]: ToolCallScope };

type Scoped = ToolCallDetails & { [CALL_SCOPE]?: ToolCallScope };

export function callScopeOf(details: ToolCallDetails | undefined): ToolCallScope | undefined {
  return (details as Scoped | undefined)?.[CALL_SCOPE];
}

/** Records that the tool's error function answered the model instead of failing the call. */
export function rememberHandledToolError(details: ToolCallDetails, error: unknown, byCustomFunction = false): void {
  const scope = callScopeOf(details);
  if (!scope) return;
  scope.handledError = error;
  scope.handledByCustomFunction = byCustomFunction;
}

/**
 * The arguments prepared for this call when `preparer` read them from `input`; taken once (a tool
 * invoked again, or given these details by another tool, validates for itself).
 */
export function takePreparedInput(details: ToolCallDetails, input: string, preparer: object): PreparedToolInput | undefined {
  const scope = callScopeOf(details);
  const prepared = scope?.preparedInput;
  if (prepared === undefined || prepared.input !== input || prepared.preparer !== preparer) return undefined;
  scope!.preparedInput = undefined;
  return prepared;
}

/** Keeps the arguments `execute` is about to receive, for the tool's `customDataExtractor`. */
export function rememberParsedInput(details: ToolCallDetails, value: unknown): void {
  const scope = callScopeOf(details);
  if (scope) scope.parsedInput = { value };
}
