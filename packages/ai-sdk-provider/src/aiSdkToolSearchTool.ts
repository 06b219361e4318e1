import { UserError, type HostedTool } from '@baton/types';
import { AI_SDK_PROVIDER_TOOL_KEY, type AiSdkProviderToolDefinition } from './aisdkProviderTool.js';

/**
 * Makes Baton's hosted `tool_search` tool of an AI SDK provider's tool search tool (Anthropic's
 * `toolSearchRegex_20251119()` / `toolSearchBm25_20251119()`, say), so an agent on an AI SDK model
 * can load deferred tools the way the vendor does it. The provider runs the search: its calls and
 * results come back as `tool_search_call` / `tool_search_output` items (`execution: 'server'`), and
 * go back to the model in the history as the provider's own call and result.
 *
 * ```ts
 * const agent = new Agent({ name: 'Assistant', model: aisdk(anthropic('claude-sonnet-4-5')),
 *   tools: [aiSdkToolSearchTool(anthropic.tools.toolSearchRegex_20251119()), ...deferredTools] });
 * ```
 */
export function aiSdkToolSearchTool(providerTool: AiSdkProviderToolDefinition): HostedTool {
  if (typeof providerTool !== 'object' || providerTool === null || (providerTool.type !== 'provider' && providerTool.type !== 'provider-defined')) {
    throw new UserError(`aiSdkToolSearchTool() expects an AI SDK provider tool ({ type: 'provider', id, args }), got ${describe(providerTool)}.`);
  }
  if (typeof providerTool.id !== 'string' || providerTool.id.trim() === '') {
    throw new UserError(`aiSdkToolSearchTool(): the provider tool needs a non-empty id, got ${JSON.stringify(providerTool.id)}.`);
  }
  const args = providerTool.args ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UserError("aiSdkToolSearchTool(): the provider tool's args must be an object.");
  return {
    type: 'hosted_tool',
    name: 'tool_search',
    providerData: { type: 'tool_search', execution: 'server', [AI_SDK_PROVIDER_TOOL_KEY]: { id: providerTool.id, args } },
  };
}

function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return `a value of typeof '${typeof value}'`;
  return `an object with type ${JSON.stringify((value as { type?: unknown }).type)}`;
}
