import type { FunctionTool } from '@baton/types';

/**
 * Whether a `stopAtToolNames` entry names this function tool: its bare name, or, for a tool inside a
 * `toolNamespace()`, its qualified `namespace.name` too (what the model calls it by).
 */
export function stopAtToolNamesMatch(stopAtToolNames: readonly string[], tool: Pick<FunctionTool<any>, 'name' | 'namespace'>): boolean {
  const qualified = tool.namespace ? `${tool.namespace}.${tool.name}` : undefined;
  return stopAtToolNames.some((name) => name !== '' && (name === tool.name || name === qualified));
}
