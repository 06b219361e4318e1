import type { FunctionTool } from '@baton/types';
import { qualifiedToolName } from './qualifiedToolName.js';

/**
 * Whether a `stopAtToolNames` entry names this function tool: its bare name, or, for a tool inside a
 * `toolNamespace()`, its qualified `namespace.name` too (what the model calls it by).
 */
export function stopAtToolNamesMatch(stopAtToolNames: readonly string[], tool: Pick<FunctionTool<any>, 'name' | 'namespace'>): boolean {
  const qualified = qualifiedToolName(tool);
  return stopAtToolNames.some((name) => name !== '' && (name === tool.name || name === qualified));
}
