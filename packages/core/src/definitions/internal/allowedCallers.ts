import { ModelBehaviorError, UserError, type ToolAllowedCallers, type ToolCaller } from '@baton/types';

/**
 * Who may call a tool (Programmatic Tool Calling, Responses API): the model itself (`direct`) and/or
 * a program the model runs (`programmatic`). A tool that says nothing may be called directly only.
 */

/** A non-empty list of known callers without duplicates, or a `UserError` naming the tool (the reference's messages). */
export function checkedAllowedCallers(callers: unknown, toolName: string): ToolAllowedCallers | undefined {
  if (callers === undefined) return undefined;
  if (!Array.isArray(callers) || callers.length === 0) throw new UserError(`Tool '${toolName}' allowedCallers must contain at least one caller.`);
  // By index: an `undefined` entry is as unsupported as any other value.
  const unknown = callers.findIndex((caller) => caller !== 'direct' && caller !== 'programmatic');
  if (unknown !== -1) throw new UserError(`Tool '${toolName}' allowedCallers contains unsupported caller '${String(callers[unknown])}'.`);
  if (new Set(callers).size !== callers.length) throw new UserError(`Tool '${toolName}' allowedCallers must not contain duplicate callers.`);
  return [...callers] as unknown as ToolAllowedCallers;
}

/** Which kind of caller made a call: a program (its `caller` says so) or the model directly. */
export function callerKind(caller: ToolCaller | undefined): 'programmatic' | 'direct' {
  return caller?.type === 'program' ? 'programmatic' : 'direct';
}

/** A call from a caller the tool does not allow is the model's mistake: a `ModelBehaviorError`. */
export function checkCallerAllowed(call: { caller?: ToolCaller; callId?: string }, allowed: ToolAllowedCallers | undefined, toolName: string): void {
  const kind = callerKind(call.caller);
  const effective: readonly string[] = allowed ?? ['direct'];
  if (effective.includes(kind)) return;
  throw new ModelBehaviorError(`Model invoked tool ${toolName} with caller ${kind}, but the tool allows only ${JSON.stringify(effective)}.`);
}
