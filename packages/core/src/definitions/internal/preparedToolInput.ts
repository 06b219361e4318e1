import type { FunctionTool } from '@baton/types';

/**
 * A tool made by `tool()` reads a call's arguments as its `execute` would receive them (parsed and
 * checked by its schema, transforms applied) without running anything: the run asks for them where
 * the tool did not run but the reference still shows them (a tool input guardrail rejected the
 * call, and the tool's `customDataExtractor` is given the input). A symbol, so the tool's JSON and
 * keys do not show it; a spread copy of the tool keeps it.
 */
export const PREPARE_INPUT: unique symbol = Symbol('baton.prepareToolInput');

/**
 * How a call's arguments read: the value `execute` receives, or why not (not JSON, refused by the
 * schema, or the schema's validation threw). A failure keeps what the tool's own invocation would
 * have raised, so an invocation given it raises that without validating again.
 */
export type ReadToolInput =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly failure: { readonly kind: 'not_json'; readonly error: unknown } | { readonly kind: 'invalid'; readonly message: string } | { readonly kind: 'threw'; readonly error: unknown } };

export type InputPreparer = (input: string) => Promise<ReadToolInput>;

type Preparing = FunctionTool<any> & { [PREPARE_INPUT]?: InputPreparer };

export function inputPreparerOf(tool: FunctionTool<any>): InputPreparer | undefined {
  return (tool as Preparing)[PREPARE_INPUT];
}

export function withInputPreparer<T extends FunctionTool<any>>(tool: T, prepare: InputPreparer): T {
  (tool as Preparing)[PREPARE_INPUT] = prepare;
  return tool;
}
