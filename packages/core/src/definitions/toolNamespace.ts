import { UserError, type FunctionTool } from '@baton/types';
import { toFunctionToolName } from './internal/names.js';

export interface ToolNamespaceOptions<TContext = unknown> {
  /** The namespace's name (made tool-safe as tool names are: spaces and symbols become `_`). */
  name: string;
  /** What the namespace holds; the Responses API requires it. */
  description: string;
  tools: FunctionTool<TContext>[];
}

/**
 * Groups function tools under a namespace (Responses API only): the model sees them inside one
 * `namespace` tool and calls them as `namespace.name`; with `deferLoading`, tool search loads the
 * namespace on demand. Returns copies of the tools carrying the namespace; the originals are unchanged
 * (the copies share their `invoke` and everything else).
 */
export function toolNamespace<TContext = unknown>(options: ToolNamespaceOptions<TContext>): FunctionTool<TContext>[] {
  // The reference's messages, which callers may match on, lead each error.
  if (typeof options !== 'object' || options === null) throw new UserError('toolNamespace() requires a namespace config object.');
  const { name, description, tools } = options;
  if (typeof name !== 'string' || name.trim() === '') throw new UserError('toolNamespace() requires a non-empty namespace name.');
  if (typeof description !== 'string' || description.trim() === '') {
    throw new UserError('toolNamespace() requires a non-empty description because the Responses API requires namespace descriptions.');
  }
  if (!Array.isArray(tools)) throw new UserError(`toolNamespace() requires an array of function tools (namespace "${name}").`);
  const notFunction = tools.findIndex((tool) => (tool as { type?: unknown } | null)?.type !== 'function');
  if (notFunction !== -1) throw new UserError(`toolNamespace() only supports FunctionTool instances: tools[${notFunction}] of namespace "${name}" is not one (hosted tools cannot be namespaced).`);
  const namespace = toFunctionToolName(name.trim());
  const clash = tools.find((tool) => tool.name === namespace);
  if (clash) {
    throw new UserError(
      `toolNamespace() does not allow a tool named "${namespace}" inside namespace "${namespace}" because Responses self-namespaced calls would be ambiguous. Rename the tool or the namespace.`,
    );
  }
  const namespaceDescription = description.trim();
  return tools.map((tool) => Object.create(Object.getPrototypeOf(tool), { ...Object.getOwnPropertyDescriptors(tool), namespace: own(namespace), namespaceDescription: own(namespaceDescription) }) as FunctionTool<TContext>);
}

function own(value: string): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}
