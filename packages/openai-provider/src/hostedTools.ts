import { UserError, attachClientToolSearchExecutor, type ClientToolSearchExecutor, type HostedTool, type ToolAllowedCallers } from '@baton/types';

/**
 * OpenAI's hosted tools: the Responses API runs them during the request (no local code runs).
 * Each is a `HostedTool` whose `providerData` the Responses model turns into the API's tool
 * definition, the reference's fields and defaults; the Chat Completions model rejects them.
 */

export interface WebSearchToolOptions {
  name?: string;
  userLocation?: { type: 'approximate'; city?: string | null; country?: string | null; region?: string | null; timezone?: string | null };
  filters?: { allowedDomains?: string[] | null };
  searchContextSize?: 'low' | 'medium' | 'high';
  externalWebAccess?: boolean;
  searchContentTypes?: string[];
  imageSettings?: { maxResults?: number; caption?: boolean };
}

export function webSearchTool(options: WebSearchToolOptions = {}): HostedTool {
  const providerData: Record<string, unknown> = {
    type: 'web_search',
    name: options.name ?? 'web_search',
    user_location: options.userLocation,
    filters: options.filters?.allowedDomains ? { allowed_domains: options.filters.allowedDomains } : undefined,
    search_context_size: options.searchContextSize ?? 'medium',
  };
  if (options.externalWebAccess !== undefined) providerData.external_web_access = options.externalWebAccess;
  if (options.searchContentTypes !== undefined) providerData.search_content_types = options.searchContentTypes;
  if (options.imageSettings !== undefined) providerData.image_settings = { max_results: options.imageSettings.maxResults, caption: options.imageSettings.caption };
  return { type: 'hosted_tool', name: options.name ?? 'web_search', providerData };
}

export interface FileSearchToolOptions {
  name?: string;
  maxNumResults?: number;
  /** Ask for the matched chunks in the output (`file_search_call.results`). */
  includeSearchResults?: boolean;
  rankingOptions?: Record<string, unknown>;
  filters?: Record<string, unknown>;
}

export function fileSearchTool(vectorStoreIds: string | string[], options: FileSearchToolOptions = {}): HostedTool {
  const ids = Array.isArray(vectorStoreIds) ? vectorStoreIds : [vectorStoreIds];
  if (ids.length === 0 || ids.some((id) => typeof id !== 'string' || id === '')) {
    throw new UserError(`fileSearchTool(): expected one or more vector store ids, got ${JSON.stringify(vectorStoreIds)}.`);
  }
  return {
    type: 'hosted_tool',
    name: options.name ?? 'file_search',
    providerData: {
      type: 'file_search',
      name: options.name ?? 'file_search',
      vector_store_ids: ids,
      max_num_results: options.maxNumResults,
      include_search_results: options.includeSearchResults,
      ranking_options: options.rankingOptions,
      filters: options.filters,
    },
  };
}

export interface CodeInterpreterToolOptions {
  name?: string;
  /** Ask for the run's outputs (`code_interpreter_call.outputs`). */
  includeOutputs?: boolean;
  /** A container id, or `{ type: 'auto', file_ids? }` (the default). */
  container?: string | { type: 'auto'; file_ids?: string[]; [key: string]: unknown };
  /** Who may run code: the model directly and / or a Programmatic Tool Calling program. */
  allowedCallers?: ToolAllowedCallers;
}

export function codeInterpreterTool(options: CodeInterpreterToolOptions = {}): HostedTool {
  const name = options.name ?? 'code_interpreter';
  const allowedCallers = checkedAllowedCallers(options.allowedCallers, name);
  return {
    type: 'hosted_tool',
    name,
    providerData: {
      type: 'code_interpreter',
      name,
      container: options.container ?? { type: 'auto' },
      include_outputs: options.includeOutputs,
      allowed_callers: allowedCallers,
    },
  };
}

/** A non-empty list of known callers without duplicates, or a `UserError` naming the tool. */
function checkedAllowedCallers(callers: ToolAllowedCallers | undefined, toolName: string): string[] | undefined {
  if (callers === undefined) return undefined;
  if (!Array.isArray(callers) || callers.length === 0) throw new UserError(`Tool '${toolName}' allowedCallers must contain at least one caller.`);
  const unknown = callers.find((caller) => caller !== 'direct' && caller !== 'programmatic');
  if (unknown !== undefined) throw new UserError(`Tool '${toolName}' allowedCallers contains unsupported caller '${String(unknown)}'.`);
  if (new Set(callers).size !== callers.length) throw new UserError(`Tool '${toolName}' allowedCallers must not contain duplicate callers.`);
  return [...callers];
}

/**
 * Programmatic Tool Calling: the model may write a program that calls the tools whose
 * `allowedCallers` include `'programmatic'` (Responses API).
 */
export function programmaticToolCallingTool(): HostedTool {
  return { type: 'hosted_tool', name: 'programmatic_tool_calling', providerData: { type: 'programmatic_tool_calling' } };
}

export interface ToolSearchToolOptions<TContext = unknown> {
  /** Only the built-in name is accepted. */
  name?: 'tool_search';
  /** `server` (the default: OpenAI searches) or `client` (the run answers `tool_search_call` items). */
  execution?: 'server' | 'client';
  description?: string | null;
  /** A custom search schema (client execution). */
  parameters?: unknown;
  /** Client execution: picks the tools to load for a call. */
  execute?: ClientToolSearchExecutor<TContext>;
}

/**
 * Tool search: the model searches the deferred tools (`deferLoading: true`, namespaces, deferred
 * MCP servers) and loads what it needs. OpenAI runs the search unless `execution: 'client'`.
 */
export function toolSearchTool<TContext = unknown>(options: ToolSearchToolOptions<TContext> = {}): HostedTool {
  if (typeof options.name === 'string' && options.name !== 'tool_search') {
    throw new UserError('toolSearchTool() only supports the canonical built-in name "tool_search".');
  }
  if (typeof options.execute === 'function' && options.execution !== 'client') {
    throw new UserError('toolSearchTool() only supports execute when execution is "client".');
  }
  const tool: HostedTool = {
    type: 'hosted_tool',
    name: 'tool_search',
    providerData: { type: 'tool_search', name: 'tool_search', execution: options.execution, description: options.description, parameters: options.parameters },
  };
  return typeof options.execute === 'function' ? attachClientToolSearchExecutor(tool, options.execute) : tool;
}

export interface ImageGenerationToolOptions {
  name?: string;
  action?: 'generate' | 'edit' | 'auto';
  background?: string;
  inputFidelity?: 'high' | 'low' | null;
  inputImageMask?: { image_url?: string; file_id?: string };
  model?: string;
  moderation?: string;
  outputCompression?: number;
  outputFormat?: string;
  partialImages?: number;
  quality?: string;
  size?: string;
}

export function imageGenerationTool(options: ImageGenerationToolOptions = {}): HostedTool {
  return {
    type: 'hosted_tool',
    name: options.name ?? 'image_generation',
    providerData: {
      type: 'image_generation',
      name: options.name ?? 'image_generation',
      action: options.action,
      background: options.background,
      input_fidelity: options.inputFidelity,
      input_image_mask: options.inputImageMask,
      model: options.model,
      moderation: options.moderation,
      output_compression: options.outputCompression,
      output_format: options.outputFormat,
      partial_images: options.partialImages,
      quality: options.quality,
      size: options.size,
    },
  };
}
