import type { Tool } from '@baton/types';
import { qualifiedToolName } from './internal/qualifiedToolName.js';

/**
 * The key a tool search's loaded tool is known by at run time: a function tool's qualified name
 * (`namespace.name`, or its bare name outside a namespace), `mcp:<server_label>` for a hosted MCP
 * server; undefined for anything a tool search cannot load.
 */
export function getToolSearchRuntimeToolKey(tool: Tool<any>): string | undefined {
  if (tool.type === 'function') return qualifiedToolName(tool);
  const label = tool.type === 'hosted_tool' && tool.providerData?.type === 'mcp' ? tool.providerData.server_label : undefined;
  return typeof label === 'string' && label.length > 0 ? `mcp:${label}` : undefined;
}
