import type { FunctionTool } from '@baton/types';

/**
 * A tool made by `tool()` reads a call's arguments as its `execute` would receive them (parsed and
 * checked by its schema, transforms applied) without running anything: the run asks for them where
 * the tool did not run but the reference still shows them (a tool input guardrail rejected the
 * call, and the tool's `customDataExtractor` is given the input). A symbol, so the tool's JSON and
 * keys do not show it; a spread copy of the tool keeps it.
 */
export const PREPARE_INPUT: unique symbol = Symbol('baton.prepareToolInput');

export type InputPreparer = (input: string) => Promise<{ readonly ok: true; readonly value: unknown } | { readonly ok: false }>;

type Preparing = FunctionTool<any> & { [PREPARE_INPUT]?: InputPreparer };

export function inputPreparerOf(tool: FunctionTool<any>): InputPreparer | undefined {
  return (tool as Preparing)[PREPARE_INPUT];
}

export function withInputPreparer<T extends FunctionTool<any>>(tool: T, prepare: InputPreparer): T {
  (tool as Preparing)[PREPARE_INPUT] = prepare;
  return tool;
}
