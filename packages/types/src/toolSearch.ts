import type { HostedTool, Tool } from './tool.js';
import type { RunContextContract } from './runContext.js';
import type { RegisteredAgent } from './registry.js';
import type { ToolSearchCallItem } from './protocol.js';

/**
 * Client-executed tool search (`toolSearchTool({ execution: 'client', execute })`): the run loop
 * calls the executor a hosted `tool_search` tool carries to answer the model's `tool_search_call`
 * with the tools to load. The executor travels on the tool under a well-known symbol, so the
 * provider that builds the tool and the run loop that calls it share no code.
 */

/** What the executor receives: the call, the agent's tools, and the default loader (`{ paths }` over deferred tools). */
export interface ClientToolSearchExecutorArgs<TContext = unknown> {
  agent: RegisteredAgent;
  availableTools: Tool<TContext>[];
  loadDefault: (paths: string[]) => Tool<TContext>[];
  runContext: RunContextContract<TContext>;
  toolCall: ToolSearchCallItem;
}

/** The tools to load: one, several, or none. */
export type ClientToolSearchExecutorResult<TContext = unknown> = Tool<TContext> | Tool<TContext>[] | null | undefined;

export type ClientToolSearchExecutor<TContext = unknown> = (
  args: ClientToolSearchExecutorArgs<TContext>,
) => ClientToolSearchExecutorResult<TContext> | Promise<ClientToolSearchExecutorResult<TContext>>;

/** Where a hosted `tool_search` tool keeps its client executor (not enumerable: never serialized). */
export const CLIENT_TOOL_SEARCH_EXECUTOR: unique symbol = Symbol.for('@baton/clientToolSearchExecutor');

/** Attaches a client executor to a hosted tool search tool; returns the tool. */
export function attachClientToolSearchExecutor<TContext = unknown>(tool: HostedTool, executor: ClientToolSearchExecutor<TContext>): HostedTool {
  Object.defineProperty(tool, CLIENT_TOOL_SEARCH_EXECUTOR, { value: executor, enumerable: false, configurable: true });
  return tool;
}

/** The client executor a hosted tool carries, if any. */
export function getClientToolSearchExecutor<TContext = unknown>(tool: Tool<TContext>): ClientToolSearchExecutor<TContext> | undefined {
  if (tool.type !== 'hosted_tool') return undefined;
  return (tool as unknown as Record<symbol, ClientToolSearchExecutor<TContext> | undefined>)[CLIENT_TOOL_SEARCH_EXECUTOR];
}
