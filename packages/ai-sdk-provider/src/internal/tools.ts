import type { JSONSchema7, LanguageModelV4FunctionTool, LanguageModelV4ProviderTool, LanguageModelV4ToolChoice } from '@ai-sdk/provider';
import { UserError, type ModelRequest, type SerializedFunctionTool, type SerializedHandoff, type SerializedTool } from '@baton/types';
import { AI_SDK_PROVIDER_TOOL_KEY } from '../aisdkProviderTool.js';
import type { AiSdkSpecificationVersion } from '../languageModel.js';
import { isPlainObject, isRecord } from './json.js';
import { flatToolName } from './toolNames.js';
import { isHostedToolSearch } from './toolSearchOutput.js';

export type SpecTool = LanguageModelV4FunctionTool | LanguageModelV4ProviderTool;

/**
 * The request's tools as the spec's `tools`: function tools (`inputSchema` is the JSON schema,
 * `strict` kept), handoffs offered as function tools, and hosted tools made with
 * `aisdkProviderTool()` / `aiSdkToolSearchTool()` as provider tools, a hosted tool search as the
 * provider's `tool_search` tool. Any other hosted tool (an OpenAI one, say) is a
 * `UserError` naming it: the AI SDK has no way to run it.
 */
export function specTools(request: ModelRequest, spec: AiSdkSpecificationVersion, provider: string): SpecTool[] | undefined {
  const tools = [...(request.tools ?? []).map((tool) => specTool(tool, spec, provider)), ...(request.handoffs ?? []).map(handoffTool)];
  return tools.length > 0 ? tools : undefined;
}

function specTool(tool: SerializedTool, spec: AiSdkSpecificationVersion, provider: string): SpecTool {
  if (tool.type === 'function') {
    const fn = tool as SerializedFunctionTool;
    return { type: 'function', name: flatToolName(fn as { name: string; namespace?: unknown }), description: fn.description, inputSchema: fn.parameters as JSONSchema7, strict: fn.strict };
  }
  const hosted = tool as { type: string; name: string; providerData?: unknown };
  const providerData = isRecord(hosted.providerData) ? hosted.providerData : undefined;
  const definition = providerData?.[AI_SDK_PROVIDER_TOOL_KEY];
  if (isRecord(definition) && typeof definition.id === 'string' && /^[^.]+\..+$/.test(definition.id) && (definition.args === undefined || isPlainObject(definition.args))) {
    // v2 (AI SDK 5) names the same shape `provider-defined`.
    const type = (spec === 'v2' ? 'provider-defined' : 'provider') as 'provider';
    return { type, id: definition.id as `${string}.${string}`, name: tool.name, args: (definition.args as Record<string, unknown> | undefined) ?? {} };
  }
  if (isHostedToolSearch(tool) && providerData !== undefined) {
    // A tool search the run loop answers (or one described only by its provider data): the provider's own `tool_search` tool.
    const type = (spec === 'v2' ? 'provider-defined' : 'provider') as 'provider';
    const prefix = spec !== 'v2' && provider.toLowerCase().startsWith('openai.') ? 'openai' : provider;
    const { type: _type, name: _name, args, ...rest } = providerData;
    return { type, id: `${prefix}.${tool.name}` as `${string}.${string}`, name: tool.name, args: isPlainObject(args) ? args : rest };
  }
  const kind = typeof providerData?.type === 'string' ? ` (${providerData.type})` : '';
  throw new UserError(
    `Tool "${tool.name}" is a hosted tool of type "${tool.type}"${kind} that an AI SDK model cannot run. Use an AI SDK provider tool through aisdkProviderTool(), or the vendor's own Baton provider.`,
  );
}

function handoffTool(handoff: SerializedHandoff): SpecTool {
  return {
    type: 'function',
    name: handoff.toolName,
    description: handoff.toolDescription,
    inputSchema: handoff.inputJsonSchema as JSONSchema7,
    strict: handoff.strictJsonSchema,
  };
}

/**
 * `modelSettings.toolChoice` as the spec's: `auto` / `required` / `none`, or `{ type: 'tool' }` for
 * any other name (the reference's `toolChoiceToLanguageV2Format`; the provider checks the name).
 */
export function specToolChoice(choice: string | undefined | null): LanguageModelV4ToolChoice | undefined {
  if (!choice) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  return { type: 'tool', toolName: choice };
}
