import type { FunctionCallItem } from './protocol.js';

/**
 * The key a function call's tool is known by in approval and resume state, the reference's
 * format: `["bare",name]` for a plain tool, `["namespaced",namespace,name]` for a tool of a
 * namespace, `["deferred_top_level",name]` for a deferred top-level tool (the Responses API names
 * its namespace after the tool). `undefined` when the call carries no name.
 */
export function functionToolStateKeyOf(call: Pick<FunctionCallItem, 'name' | 'namespace'>): string | undefined {
  const { name, namespace } = call;
  if (typeof name !== 'string' || name.length === 0) return undefined;
  if (namespace === name) return JSON.stringify(['deferred_top_level', name]);
  if (typeof namespace === 'string' && namespace.length > 0) return JSON.stringify(['namespaced', namespace, name]);
  return JSON.stringify(['bare', name]);
}
