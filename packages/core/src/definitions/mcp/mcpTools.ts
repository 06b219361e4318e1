import {
  UserError,
  type CallToolResult,
  type FunctionTool,
  type MCPServer,
  type MCPTool,
  type MCPToolErrorFunction,
  type MCPToolFilterStatic,
  type RegisteredAgent,
  type RunContextContract,
} from '@baton/types';
import { tool } from '../tool.js';
import { McpCallResults } from './mcpCallResults.js';
import { getLogger } from '../logger.js';
import type { RunContext } from '../runContext.js';
import { serverPrefixedToolNames } from './serverToolNames.js';
import { cachedListing, dropListings, listingGeneration, storeListing } from '../internal/mcpToolCache.js';

const logger = getLogger('openai-agents:mcp');

/** The cache key of a server's listing: its name, or name and agent when a callable filter decides per agent. */
export type MCPToolCacheKeyGenerator = (params: { server: MCPServer; agent?: RegisteredAgent; runContext?: RunContextContract<any> }) => string;

export const defaultMCPToolCacheKey: MCPToolCacheKeyGenerator = ({ server, agent }) =>
  typeof server.toolFilter === 'function' && agent ? `${server.name}:${agent.name}` : server.name;

/** How an agent offers its servers' tools (`mcpConfig` on the agent). */
export interface MCPConfig {
  /** Offer the tools with strict JSON schemas when the schema allows it. Defaults to `false`. */
  convertSchemasToStrict?: boolean;
  /** For servers that set none: turns a failed call into the model's text; `null` fails the run. */
  errorFunction?: MCPToolErrorFunction | null;
  /**
   * Offer each tool as `mcp_<server>__<tool>` (cut to 64 characters with a hash when longer), so
   * servers with tools of the same name can be used together. Calls still reach the server under
   * the tool's own name. Defaults to `false`.
   */
  includeServerInToolNames?: boolean;
}

export interface GetAllMcpToolsOptions<TContext = unknown> extends MCPConfig {
  mcpServers: MCPServer[];
  /** With `includeServerInToolNames`: names the agent already uses (its function tools and handoffs), which prefixed names avoid. */
  reservedToolNames?: Iterable<string>;
  runContext?: RunContextContract<TContext>;
  agent?: RegisteredAgent;
  generateMCPToolCacheKey?: MCPToolCacheKeyGenerator;
}

export interface MCPFunctionToolConversionOptions {
  toolNameOverride?: string;
  errorFunction?: MCPToolErrorFunction | null;
}

/** A static filter from allow and block lists, or `undefined` when both are empty. */
export function createMCPToolStaticFilter(options: { allowed?: string[]; blocked?: string[] } = {}): MCPToolFilterStatic | undefined {
  if (!options.allowed?.length && !options.blocked?.length) return undefined;
  const filter: MCPToolFilterStatic = {};
  if (options.allowed?.length) filter.allowedToolNames = [...options.allowed];
  if (options.blocked?.length) filter.blockedToolNames = [...options.blocked];
  return filter;
}

/** Forgets the cached listings of the named server, for every agent; the next run lists again. */
export async function invalidateServerToolsCache(serverName: string): Promise<void> {
  dropListings(serverName);
}

/**
 * Every tool of the given servers as function tools, in server order. Two tools with the same name
 * across the servers are a `UserError`. Without `runContext` and `agent`, callable filters are not
 * applied (they need both).
 */
export async function getAllMcpTools<TContext = unknown>(
  serversOrOptions: MCPServer[] | GetAllMcpToolsOptions<TContext>,
  runContext?: RunContextContract<TContext>,
  agent?: RegisteredAgent,
  convertSchemasToStrict = false,
): Promise<FunctionTool<TContext>[]> {
  const options: GetAllMcpToolsOptions<TContext> = Array.isArray(serversOrOptions)
    ? { mcpServers: serversOrOptions, convertSchemasToStrict, ...(runContext ? { runContext } : {}), ...(agent ? { agent } : {}) }
    : serversOrOptions;
  const listings: Array<readonly MCPTool[]> = [];
  for (const server of options.mcpServers) listings.push(await listServerTools(server, options));
  const names = options.includeServerInToolNames === true ? await serverPrefixedToolNames(options.mcpServers, listings, options.reservedToolNames) : undefined;
  return mcpToolsToFunctionTools(options.mcpServers, listings, options, names);
}

/** One server's tools, from its cache when it keeps one, through its tool filter. */
export async function listServerTools(
  server: MCPServer,
  options: Pick<GetAllMcpToolsOptions<any>, 'runContext' | 'agent' | 'generateMCPToolCacheKey'>,
): Promise<MCPTool[]> {
  const key = (options.generateMCPToolCacheKey ?? defaultMCPToolCacheKey)({
    server,
    ...(options.agent ? { agent: options.agent } : {}),
    ...(options.runContext ? { runContext: options.runContext } : {}),
  });
  let listed = server.cacheToolsList ? cachedListing(key) : undefined;
  if (!listed) {
    const generation = listingGeneration(server.name);
    const fetched = await server.listTools();
    if (!Array.isArray(fetched)) throw new UserError(`MCP server "${server.name}": listTools() returned ${typeof fetched}, not a list of tools.`);
    listed = fetched.map((t) => structuredClone(t));
    if (server.cacheToolsList) storeListing(key, server.name, listed, generation);
  }
  const offered: MCPTool[] = [];
  for (const candidate of listed) {
    if (await passesFilter(server, candidate, options)) offered.push(structuredClone(candidate));
  }
  return offered;
}

async function passesFilter(server: MCPServer, candidate: MCPTool, options: Pick<GetAllMcpToolsOptions<any>, 'runContext' | 'agent'>): Promise<boolean> {
  const filter = server.toolFilter;
  if (!filter) return true;
  if (typeof filter === 'function') {
    if (!options.runContext || !options.agent) return true;
    return Boolean(await filter({ runContext: options.runContext, agent: options.agent, serverName: server.name }, structuredClone(candidate)));
  }
  const allowed = filter.allowedToolNames?.length ? filter.allowedToolNames.includes(candidate.name) : true;
  const blocked = filter.blockedToolNames?.includes(candidate.name) ?? false;
  if (!allowed || blocked) logger.debug(`MCP server "${server.name}": tool "${candidate.name}" is ${blocked ? 'blocked' : 'not allowed'} by the static filter.`);
  return allowed && !blocked;
}

/** Function tools for servers' listings (in the same order), under `names` when given; a name offered twice is a `UserError`. */
export function mcpToolsToFunctionTools<TContext>(
  servers: readonly MCPServer[],
  listings: ReadonlyArray<readonly MCPTool[]>,
  options: MCPConfig,
  names?: ReadonlyArray<readonly string[]>,
): FunctionTool<TContext>[] {
  const tools: FunctionTool<TContext>[] = [];
  const owners = new Map<string, string>();
  const duplicates = new Set<string>();
  servers.forEach((server, index) => {
    for (const [toolIndex, listed] of (listings[index] ?? []).entries()) {
      const toolNameOverride = names?.[index]?.[toolIndex];
      const converted = mcpToFunctionTool(listed, server, options.convertSchemasToStrict === true, {
        ...(toolNameOverride !== undefined ? { toolNameOverride } : {}),
        ...(options.errorFunction !== undefined ? { errorFunction: options.errorFunction } : {}),
      }) as FunctionTool<TContext>;
      if (owners.has(converted.name)) duplicates.add(converted.name);
      owners.set(converted.name, server.name);
      tools.push(converted);
    }
  });
  if (duplicates.size > 0) throw new UserError(`Duplicate tool names found across MCP servers: ${[...duplicates].sort().join(', ')}`);
  return tools;
}

/**
 * An MCP tool as a function tool: calls go to the server (with the run's abort signal and the
 * `_meta` of its `toolMetaResolver`), the result's content reaches the model as the reference sends
 * it (one block alone, several as a list; `structuredContent` as JSON with `useStructuredContent`),
 * and the server's guardrails and approval policy apply to every call.
 */
export function mcpToFunctionTool(
  mcpTool: MCPTool,
  server: MCPServer,
  convertSchemasToStrict: boolean,
  options: MCPFunctionToolConversionOptions = {},
): FunctionTool<unknown> {
  const rawName = mcpTool.name;
  const errorFunction = server.errorFunction !== undefined ? server.errorFunction : options.errorFunction;
  const schema = objectSchema(mcpTool.inputSchema);

  const toolName = options.toolNameOverride ?? rawName;
  // What each call's result was, kept for the server's customDataExtractor until the call's output is final.
  const results = server.customDataExtractor === undefined ? undefined : new McpCallResults();

  async function execute(args: Record<string, unknown>, runContext: RunContext<unknown>, details: { signal: AbortSignal; toolCall: { callId: string } }): Promise<unknown> {
    try {
      const meta = server.toolMetaResolver
        ? await server.toolMetaResolver({ runContext, serverName: server.name, toolName: rawName, arguments: args })
        : undefined;
      const callOptions = { signal: details.signal };
      const result: CallToolResult =
        (server.useStructuredContent === true || results !== undefined) && server.callToolResult
          ? await server.callToolResult(rawName, args, meta ?? null, callOptions)
          : resultOf(await server.callTool(rawName, args, meta ?? null, callOptions));
      const output = modelVisibleOutput(result, server.useStructuredContent === true);
      if (results !== undefined) results.keep(runContext, details.toolCall.callId, { runContext, serverName: server.name, toolName: rawName, toolDisplayName: toolName, args, result, output });
      return output;
    } catch (error) {
      if (details.signal.aborted) throw error;
      const failure = new Error(`MCP server "${server.name}" failed to run tool "${rawName}": ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
      // The model gets the default fixed text (a server's error may carry internal details); the
      // developer gets the detail here, on the tool span, and in an errorFunction of their own.
      if (errorFunction === undefined) logger.warn(failure.message);
      throw failure;
    }
  }

  const make = (strict: boolean, parameters: Record<string, unknown>) => {
    const made = tool({
      name: toolName,
      description: mcpTool.description ?? '',
      parameters: parameters as never,
      strict,
      execute: execute as never,
      ...(errorFunction === undefined ? {} : { errorFunction: errorFunction === null ? null : (context, error) => errorFunction({ context, error }) }),
      needsApproval: (runContext, input, callId) => approvalRequired(server, rawName, runContext, input as Record<string, unknown>, callId),
      ...(server.toolInputGuardrails ? { inputGuardrails: [...server.toolInputGuardrails] } : {}),
      ...(server.toolOutputGuardrails ? { outputGuardrails: [...server.toolOutputGuardrails] } : {}),
      ...(results !== undefined ? { customDataExtractor: (context) => results.extract(server, context.runContext, context.toolCall.callId, context.output) } : {}),
    });
    made.mcp = { server: server.name, toolName: rawName };
    return made;
  };

  if (convertSchemasToStrict || schema.additionalProperties === true) {
    const empty = Object.keys(mcpTool.inputSchema ?? {}).length === 0;
    const strictCandidate = empty ? { ...schema, additionalProperties: false } : schema;
    try {
      // Strict mode closes every object: a schema with an open one (any keys allowed) would change
      // meaning, so it stays non-strict, as on the reference.
      if (hasOpenObject(strictCandidate)) throw new Error('the schema has an object open to any keys');
      return make(true, strictCandidate);
    } catch (error) {
      logger.warn(`MCP server "${server.name}": tool "${rawName}" keeps a non-strict schema: ${error instanceof Error ? error.message : String(error)}`);
      return make(false, { ...schema, additionalProperties: 'additionalProperties' in schema ? schema.additionalProperties : true });
    }
  }
  return make(false, { ...schema, additionalProperties: true });
}

/**
 * Whether some object in the schema is open to extra keys: it declares them (`additionalProperties`
 * true or a schema), or it has no properties and does not forbid them. An object schema is one typed
 * `object` (alone or among others), one with properties, or an untyped one that speaks of extra keys.
 */
function hasOpenObject(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasOpenObject);
  if (typeof node !== 'object' || node === null) return false;
  const record = node as Record<string, unknown>;
  const objectTyped = record.type === 'object' || (Array.isArray(record.type) && record.type.includes('object'));
  const properties = typeof record.properties === 'object' && record.properties !== null ? record.properties : undefined;
  const isObjectSchema = objectTyped || properties !== undefined || (record.type === undefined && 'additionalProperties' in record);
  if (isObjectSchema && record.additionalProperties !== undefined && record.additionalProperties !== false) return true;
  if (objectTyped && Object.keys(properties ?? {}).length === 0 && record.additionalProperties !== false) return true;
  return Object.entries(record).some(([key, value]) => subschemaIsOpen(key, value));
}

/** A keyword's value: a map of named schemas (whatever the names), data (skipped), or schemas to walk. */
function subschemaIsOpen(key: string, value: unknown): boolean {
  if (SCHEMA_MAPS.has(key)) return typeof value === 'object' && value !== null && Object.values(value).some(hasOpenObject);
  return !VALUE_KEYWORDS.has(key) && hasOpenObject(value);
}

/** Keywords whose value maps names to schemas: a schema may be named `additionalProperties` or `default`. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Keywords whose values are data, not schemas: an enum member, a default or an example may look like one. */
const VALUE_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** The listed input schema as an object schema (servers may leave out `type`, `properties`, `required`). */
function objectSchema(inputSchema: MCPTool['inputSchema'] | undefined): Record<string, unknown> & { additionalProperties?: unknown } {
  const given = inputSchema ?? ({} as MCPTool['inputSchema']);
  return { ...given, type: given.type ?? 'object', properties: given.properties ?? {}, required: given.required ?? [] };
}

function resultOf(content: Awaited<ReturnType<MCPServer['callTool']>>): CallToolResult {
  if (!Array.isArray(content)) throw new Error(`callTool() returned ${typeof content}, not a list of content blocks`);
  const result: CallToolResult = { content };
  if (content.structuredContent !== undefined) result.structuredContent = content.structuredContent;
  if (content.isError !== undefined) result.isError = content.isError;
  if (content._meta !== undefined) result._meta = content._meta;
  return result;
}

function modelVisibleOutput(result: CallToolResult, useStructuredContent: boolean): unknown {
  if (useStructuredContent && result.isError !== true && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return result.content.length === 1 ? result.content[0] : result.content;
}

async function approvalRequired(
  server: MCPServer,
  toolName: string,
  runContext: RunContextContract<unknown>,
  args: Record<string, unknown>,
  callId: string | undefined,
): Promise<boolean> {
  const policy = server.requireApproval;
  if (policy === undefined || policy === 'never') return false;
  if (policy === 'always') return true;
  if (typeof policy === 'function') {
    return Boolean(await policy({ runContext, serverName: server.name, toolName, arguments: args, ...(callId !== undefined ? { callId } : {}) }));
  }
  if (policy.never?.toolNames.includes(toolName)) return false;
  return policy.always?.toolNames.includes(toolName) ?? false;
}
