import {
  ModelBehaviorError,
  UserError,
  getClientToolSearchExecutor,
  type FunctionTool,
  type HostedTool,
  type RegisteredAgent,
  type RunContextContract,
  type Tool,
  type ToolSearchCallItem,
  type ToolSearchOutputItem,
} from '@baton/types';
import { getToolSearchRuntimeToolKey } from '../toolSearch.js';

/**
 * What the SDK does for a tool search the model asks the client to run: the built-in loader reads
 * `{ paths }` and loads the agent's deferred tools of those names; a `toolSearchTool({ execution:
 * 'client', execute })` answers with tools of its own choosing, which join the agent's tools for
 * the rest of the run. Either way the answer becomes a `tool_search_output` item.
 */

type ToolSearchItem = ToolSearchCallItem | ToolSearchOutputItem;

function providerDataOf(item: ToolSearchItem): Record<string, unknown> | undefined {
  const data = item.providerData;
  return typeof data === 'object' && data !== null ? data : undefined;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Who runs a tool search item: the item's own `execution`, else its provider data's. */
export function toolSearchExecution(item: ToolSearchItem): 'client' | 'server' | undefined {
  const execution = item.execution ?? providerDataOf(item)?.execution;
  return execution === 'client' || execution === 'server' ? execution : undefined;
}

/** The call id a search and its output share (provider data first, then the item's own fields). */
export function toolSearchCallIdOf(item: ToolSearchItem): string | undefined {
  const data = providerDataOf(item);
  for (const candidate of [data?.call_id, data?.callId, item.call_id, item.callId]) if (nonEmpty(candidate)) return candidate;
  return undefined;
}

/** The id an output answers by: its call id, else the item id. */
export function toolSearchMatchKey(item: ToolSearchItem): string | undefined {
  return toolSearchCallIdOf(item) ?? (nonEmpty(item.id) ? item.id : undefined);
}

/** The agent's client-executed tool search tool, if it has one. */
export function clientToolSearchToolOf(tools: readonly Tool<any>[]): HostedTool | undefined {
  return tools.find((tool): tool is HostedTool => tool.type === 'hosted_tool' && tool.providerData?.type === 'tool_search' && tool.providerData.execution === 'client');
}

/** A client tool search with parameters of its own (only an executor can answer those). */
export function hasCustomParameters(tool: HostedTool): boolean {
  return tool.providerData?.parameters != null;
}

/** The message a client search with custom parameters and no executor fails with (the reference's words lead). */
export function missingExecutorMessage(agentName: string, toolName: string): string {
  return (
    `Runner.run() and Runner.runStreamed() require toolSearchTool({ execution: "client", execute }) when custom client tool_search parameters are provided ` +
    `(agent "${agentName}", tool "${toolName}"). Leave parameters unset to use the built-in { paths: string[] } loader, or use server execution.`
  );
}

/** The key two loaded tools collide on: where calls to the tool are routed. */
export function toolSearchRoutingKey(tool: Tool<any>): string | undefined {
  if (tool.type !== 'function') return getToolSearchRuntimeToolKey(tool);
  if (tool.namespace) return JSON.stringify(['namespaced', tool.namespace, tool.name]);
  return JSON.stringify([tool.deferLoading === true ? 'deferred_top_level' : 'bare', tool.name]);
}

function isDeferredMcp(tool: Tool<any>): tool is HostedTool {
  return tool.type === 'hosted_tool' && tool.providerData?.type === 'mcp' && tool.providerData.defer_loading === true;
}

/**
 * The built-in loader: the deferred tools the paths name (a top-level tool, a whole namespace, one
 * `namespace.tool`, or a deferred MCP server by label), each once, in the order asked. Names that
 * match nothing load nothing; a name that matches two kinds of tool is a `UserError`.
 */
export function loadDeferredTools<TContext>(paths: readonly string[], tools: readonly Tool<TContext>[]): Tool<TContext>[] {
  const deferred = tools.filter((tool): tool is FunctionTool<TContext> => tool.type === 'function' && tool.deferLoading === true);
  const topLevel = new Map(deferred.filter((tool) => !tool.namespace).map((tool) => [tool.name, tool]));
  const namespaces = new Map<string, FunctionTool<TContext>[]>();
  const qualified = new Map<string, FunctionTool<TContext>>();
  for (const tool of deferred) {
    if (!tool.namespace) continue;
    namespaces.set(tool.namespace, [...(namespaces.get(tool.namespace) ?? []), tool]);
    qualified.set(`${tool.namespace}.${tool.name}`, tool);
  }
  const servers = new Map(tools.filter(isDeferredMcp).map((tool) => [String(tool.providerData!.server_label), tool]));
  const ambiguous = paths.find((path) => [topLevel, namespaces, qualified, servers].filter((map) => map.has(path)).length > 1);
  if (ambiguous !== undefined) {
    throw new UserError(`The client tool search path "${ambiguous}" matches more than one deferred tool or namespace; rename one of them or use server tool search.`);
  }
  const loaded: Tool<TContext>[] = [];
  const add = (tool: Tool<TContext>) => void (loaded.includes(tool) ? undefined : loaded.push(tool));
  for (const path of paths) {
    const found = topLevel.get(path) ?? namespaces.get(path) ?? qualified.get(path) ?? servers.get(path);
    if (Array.isArray(found)) found.forEach(add);
    else if (found) add(found);
  }
  return loaded;
}

function functionToolDefinition(tool: FunctionTool<any>): Record<string, unknown> {
  const definition: Record<string, unknown> = { type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strict };
  if (tool.deferLoading === true) definition.deferLoading = true;
  return definition;
}

/** The `tool_search_output` answering `call` with `tools` (namespace members grouped under their namespace). */
export function toolSearchOutputFromTools(call: ToolSearchCallItem, tools: readonly Tool<any>[]): ToolSearchOutputItem {
  const callId = toolSearchMatchKey(call);
  if (callId === undefined) throw new ModelBehaviorError('The model sent a client tool_search_call with neither a call_id nor an id, so its output cannot be matched to it.');
  const definitions: Array<Record<string, any>> = [];
  const namespaces = new Map<string, Record<string, any>>();
  const seen = new Set<string>();
  for (const tool of tools) {
    const key = toolSearchRoutingKey(tool);
    if (key !== undefined && seen.has(key)) continue;
    if (key !== undefined) seen.add(key);
    if (tool.type === 'function') {
      if (!tool.namespace) {
        definitions.push(functionToolDefinition(tool));
        continue;
      }
      if (!tool.namespaceDescription) throw new UserError(`The client tool search loaded "${tool.namespace}.${tool.name}", whose namespace has no description.`);
      let namespace = namespaces.get(tool.namespace);
      if (!namespace) {
        namespace = { type: 'namespace', name: tool.namespace, description: tool.namespaceDescription, tools: [] };
        namespaces.set(tool.namespace, namespace);
        definitions.push(namespace);
      }
      namespace.tools.push(functionToolDefinition(tool));
      continue;
    }
    if (tool.providerData?.type === 'mcp') {
      const { on_approval: _onApproval, ...definition } = tool.providerData;
      definitions.push(definition);
      continue;
    }
    throw new UserError(`A client tool search may load only function tools and hosted MCP servers, not the hosted tool "${tool.name}".`);
  }
  return { type: 'tool_search_output', status: 'completed', tools: definitions, providerData: { call_id: callId, execution: 'client' } };
}

export interface ClientToolSearchAnswer {
  readonly output: ToolSearchOutputItem;
  /** What a custom executor loaded (enabled ones only); empty for the built-in loader, whose tools the agent already has. */
  readonly runtimeTools: Tool<any>[];
}

export interface ClientToolSearchArgs {
  readonly agent: RegisteredAgent;
  readonly call: ToolSearchCallItem;
  readonly searchTool: HostedTool | undefined;
  /** Every tool the agent has now (its own, its MCP servers', and those loaded by earlier searches). */
  readonly tools: readonly Tool<any>[];
  readonly runContext: RunContextContract<any>;
}

/** Answers one client tool search: through the tool's executor when it has one, else the built-in `{ paths }` loader. */
export async function answerClientToolSearch(args: ClientToolSearchArgs): Promise<ClientToolSearchAnswer> {
  const { agent, call, searchTool, tools, runContext } = args;
  const executor = searchTool ? getClientToolSearchExecutor(searchTool) : undefined;
  if (!executor) {
    if (searchTool && hasCustomParameters(searchTool)) throw new UserError(missingExecutorMessage(agent.name, searchTool.name));
    const paths = (call.arguments as { paths?: unknown } | null | undefined)?.paths;
    if (!Array.isArray(paths)) {
      throw new ModelBehaviorError(
        `The built-in client tool search answers only { paths: string[] }; the model's call ${String(toolSearchMatchKey(call))} sent ${JSON.stringify(call.arguments)}. Give toolSearchTool() an execute function for other arguments.`,
      );
    }
    const names = paths.filter((path): path is string => nonEmpty(path));
    return { output: toolSearchOutputFromTools(call, loadDeferredTools(names, tools)), runtimeTools: [] };
  }
  const returned = await executor({ agent, availableTools: [...tools], loadDefault: (paths) => loadDeferredTools(paths, tools), runContext, toolCall: call });
  const list = returned === undefined || returned === null ? [] : Array.isArray(returned) ? returned : [returned];
  const runtimeTools: Tool<any>[] = [];
  for (const tool of list) {
    if (tool?.type === 'function' && !(await tool.isEnabled(runContext, agent))) continue;
    runtimeTools.push(tool);
  }
  checkRuntimeTools(runtimeTools);
  return { output: toolSearchOutputFromTools(call, runtimeTools), runtimeTools };
}

/** Each loaded tool must be routable, once. */
function checkRuntimeTools(tools: readonly Tool<any>[]): void {
  const keys = new Set<string>();
  for (const tool of tools) {
    if (tool?.type === 'function' && tool.namespace === tool.name) {
      throw new ModelBehaviorError(`The client tool search loaded "${tool.name}" inside a namespace of the same name, which the Responses API cannot tell apart from a deferred top-level tool. Rename the namespace or the tool.`);
    }
    const key = tool && typeof tool === 'object' ? toolSearchRoutingKey(tool) : undefined;
    if (key === undefined) throw new ModelBehaviorError('The client tool search execute() returned something that is neither a function tool nor a hosted MCP server.');
    if (keys.has(key)) throw new ModelBehaviorError(`The client tool search execute() returned two tools routed as ${getToolSearchRuntimeToolKey(tool) ?? key}; return one tool per name.`);
    keys.add(key);
  }
}
