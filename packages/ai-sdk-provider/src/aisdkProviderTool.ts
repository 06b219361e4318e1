import { UserError, type HostedTool } from '@baton/types';

/** An AI SDK provider tool, as a provider package's tool factories return it (`anthropic.tools.webSearch_20250305({ maxUses: 3 })`). */
export interface AiSdkProviderToolDefinition {
  readonly type: 'provider' | 'provider-defined';
  /** `<provider>.<tool>`, for example `anthropic.web_search_20250305`. */
  readonly id: string;
  readonly args?: Record<string, unknown>;
}

/** Where the provider tool travels inside the hosted tool (the reference adapter's key, so its tools work here too). */
export const AI_SDK_PROVIDER_TOOL_KEY = 'aiSdkProviderTool';

/**
 * Makes a Baton hosted tool of an AI SDK provider tool, so an agent that runs on an AI SDK model
 * can use the vendor's own tools (web search, code execution, ...). The model receives it as the
 * spec's provider tool (`{ type: 'provider', id, name, args }`); the calls the vendor runs come back
 * as `hosted_tool_call` items. `name` defaults to the part of the id after the first `.`.
 *
 * ```ts
 * const agent = new Agent({ name: 'Researcher', model: aisdk(anthropic('claude-sonnet-4-5')),
 *   tools: [aisdkProviderTool(anthropic.tools.webSearch_20250305({ maxUses: 3 }), { name: 'web_search' })] });
 * ```
 */
export function aisdkProviderTool(providerTool: AiSdkProviderToolDefinition, options: { name?: string } = {}): HostedTool {
  if (typeof providerTool !== 'object' || providerTool === null || (providerTool.type !== 'provider' && providerTool.type !== 'provider-defined')) {
    throw new UserError(`aisdkProviderTool() expects an AI SDK provider tool ({ type: 'provider', id, args }), got ${describe(providerTool)}.`);
  }
  if (typeof providerTool.id !== 'string' || !/^[^.]+\..+$/.test(providerTool.id)) {
    throw new UserError(`aisdkProviderTool(): the provider tool's id must look like '<provider>.<tool>', got ${JSON.stringify(providerTool.id)}.`);
  }
  const args = providerTool.args ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UserError('aisdkProviderTool(): the provider tool\'s args must be an object.');
  const name = options.name ?? providerTool.id.slice(providerTool.id.indexOf('.') + 1);
  if (typeof name !== 'string' || name === '') throw new UserError('aisdkProviderTool(): name must be a non-empty string.');
  return { type: 'hosted_tool', name, providerData: { [AI_SDK_PROVIDER_TOOL_KEY]: { id: providerTool.id, args } } };
}

function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return `a value of typeof '${typeof value}'`;
  return `an object with type ${JSON.stringify((value as { type?: unknown }).type)}`;
}
