import type { FunctionTool, RunContextContract, ToolCallDetails } from '@baton/types';

/** Calls a function tool outside a run (the reference's `invokeFunctionTool`): parses and validates `input`, then runs it. */
export function invokeFunctionTool<TContext = unknown>(args: {
  tool: FunctionTool<TContext>;
  runContext: RunContextContract<TContext>;
  input: string;
  details?: Partial<ToolCallDetails>;
}): Promise<unknown> {
  return args.tool.invoke(args.runContext, args.input, args.details);
}
