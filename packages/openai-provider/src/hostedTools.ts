import { UserError, type HostedTool } from '@baton/types';

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
}

export function codeInterpreterTool(options: CodeInterpreterToolOptions = {}): HostedTool {
  return {
    type: 'hosted_tool',
    name: options.name ?? 'code_interpreter',
    providerData: {
      type: 'code_interpreter',
      name: options.name ?? 'code_interpreter',
      container: options.container ?? { type: 'auto' },
      include_outputs: options.includeOutputs,
    },
  };
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
