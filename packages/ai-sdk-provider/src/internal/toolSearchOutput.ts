import { UserError, type ProviderData, type SerializedTool, type ToolSearchCallItem, type ToolSearchOutputItem } from '@baton/types';
import { AI_SDK_PROVIDER_TOOL_KEY } from '../aisdkProviderTool.js';
import { isRecord } from './json.js';

/**
 * Tool search in a model's answer. When the request offers a hosted `tool_search` tool, the model's
 * calls of `tool_search` are tool searches, not function calls: a call the provider ran (or that a
 * server-side search tool made) is a `server` search, any other a `client` search for the run loop
 * to answer. The result of a provider search tool (`aiSdkToolSearchTool()`) is the search's output:
 * the loaded tool references, or the provider's error object.
 */

/** The request's hosted tool search, as the output conversion needs it. */
export interface ToolSearchTarget {
  readonly execution: 'client' | 'server';
  /** Made with `aiSdkToolSearchTool()`: the provider runs it and reports its results. */
  readonly providerTool: boolean;
}

export const TOOL_SEARCH_NAME = 'tool_search';

/** A hosted tool search tool (`type: 'tool_search'` in its provider data), whoever runs it. */
export function isHostedToolSearch(tool: SerializedTool): boolean {
  return tool.type === 'hosted_tool' && isRecord((tool as { providerData?: unknown }).providerData) && (tool as { providerData: Record<string, unknown> }).providerData.type === 'tool_search';
}

/** The request's hosted tool search, if it offers one. */
export function toolSearchTarget(tools: readonly SerializedTool[]): ToolSearchTarget | undefined {
  const tool = tools.find((candidate) => candidate.name === TOOL_SEARCH_NAME && isHostedToolSearch(candidate));
  if (tool === undefined) return undefined;
  const data = (tool as { providerData: Record<string, unknown> }).providerData;
  const config = data[AI_SDK_PROVIDER_TOOL_KEY];
  return {
    execution: data.execution === 'server' ? 'server' : 'client',
    providerTool: isRecord(config) && typeof config.id === 'string' && isRecord(config.args),
  };
}

/** The model's `tool_search` call as a tool search call item (arguments parsed when they are JSON text). */
export function toolSearchCall(
  call: { toolCallId: string; input: string; providerExecuted?: boolean | undefined },
  target: ToolSearchTarget,
  providerData: ProviderData,
): ToolSearchCallItem {
  const server = call.providerExecuted === true || target.execution === 'server';
  return { type: 'tool_search_call', id: call.toolCallId, ...(server ? { execution: 'server' as const } : {}), arguments: searchArguments(call.input), status: 'completed', providerData };
}

/**
 * A provider search's result as a tool search output item: a successful result must be a list of
 * tool references (objects), a failed one the provider's error object; anything else is a
 * `UserError` naming the call.
 */
export function toolSearchOutput(result: { toolCallId: string; result: unknown; isError?: boolean | undefined }, providerData: ProviderData): ToolSearchOutputItem {
  const failed = result.isError === true;
  let tools: Array<Record<string, unknown>>;
  if (failed && isRecord(result.result) && !Array.isArray(result.result)) tools = [result.result];
  else if (!failed && Array.isArray(result.result) && result.result.every((entry) => isRecord(entry) && !Array.isArray(entry))) tools = result.result as Array<Record<string, unknown>>;
  else {
    throw new UserError(
      `AI SDK provider tool_search returned an invalid result for call "${result.toolCallId}". Expected an array of tool references or an error object; received ${describe(result.result)}.`,
    );
  }
  return { type: 'tool_search_output', callId: result.toolCallId, execution: 'server', status: failed ? 'failed' : 'completed', tools, providerData };
}

function searchArguments(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array with entries that are not objects';
  if (value === null || typeof value !== 'object') return `a value of typeof '${typeof value}'`;
  return `an object with type ${JSON.stringify((value as { type?: unknown }).type)}`;
}
