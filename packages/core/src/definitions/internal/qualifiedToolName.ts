import type { FunctionTool } from '@baton/types';

/** What the model calls a function tool: `namespace.name` inside a `toolNamespace()`, else its bare name. */
export function qualifiedToolName(tool: Pick<FunctionTool<any>, 'name' | 'namespace'>): string {
  return tool.namespace ? `${tool.namespace}.${tool.name}` : tool.name;
}
