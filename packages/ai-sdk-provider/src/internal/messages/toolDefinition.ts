import { UserError, type SerializedOutputType } from '@baton/types';
import { AI_SDK_PROVIDER_TOOL_KEY } from '../../aisdkProviderTool.js';
import { isObject, qualifiedName, targetSpec, type ModelTarget } from './modelTarget.js';
import { providerOptionsFor } from './providerOptions.js';

type Tool = Record<string, unknown> & { type?: unknown; name?: unknown };
const PROGRAMMATIC = 'The AI SDK adapter does not support Programmatic Tool Calling. Use a Responses API model directly.';

/**
 * A tool as the AI SDK's tool definition, the reference's mapping: a function tool as a `function`
 * tool (its namespace-qualified name, `inputSchema`, `strict`, its `providerData` for this model as
 * `providerOptions`); a hosted or computer tool as a provider tool (`provider` since v3,
 * `provider-defined` in v2) whose id is the one `aisdkProviderTool()` / `aiSdkToolSearchTool()` gave,
 * else `<provider>.<name>` (`openai.<name>` for v3 / v4 OpenAI models). Deferred function tools,
 * output schemas, programmatic tool calling, computer tools without display size and other tool
 * types are a `UserError`.
 */
export function toolDefinition(model: ModelTarget, tool: Tool): Record<string, unknown> {
  if ((tool.type === 'function' || tool.type === 'shell' || tool.type === 'apply_patch') && Array.isArray(tool.allowedCallers) && tool.allowedCallers.includes('programmatic')) {
    throw new UserError(PROGRAMMATIC);
  }
  if (tool.type === 'function') {
    if (tool.deferLoading) {
      throw new UserError('The AI SDK adapter does not support deferred Responses function tools (`toolNamespace()` or `deferLoading: true`). Use a Responses API model directly.');
    }
    if (tool.outputSchema) throw new UserError('The AI SDK adapter does not support Responses function outputSchema. Use a Responses API model directly.');
    const providerOptions = providerOptionsFor(tool.providerData, model);
    return {
      type: 'function',
      name: qualifiedName(tool as { name: string; namespace?: unknown }),
      description: tool.description,
      inputSchema: tool.parameters,
      strict: tool.strict,
      ...(Object.keys(providerOptions).length > 0 ? { providerOptions } : {}),
    };
  }
  const spec = targetSpec(model);
  const type = spec === 'v2' ? 'provider-defined' : 'provider';
  const prefix = spec !== 'v2' && model.provider.toLowerCase().startsWith('openai.') ? 'openai' : model.provider;
  const name = String(tool.name);
  if (tool.type === 'hosted_tool') {
    const data = isObject(tool.providerData) ? tool.providerData : undefined;
    const definition = data?.[AI_SDK_PROVIDER_TOOL_KEY];
    if (isObject(definition) && typeof definition.id === 'string' && (definition.args === undefined || isObject(definition.args))) {
      return { type, id: definition.id, name, args: definition.args ?? {} };
    }
    if (data?.type === 'programmatic_tool_calling' || (Array.isArray(data?.allowed_callers) && data.allowed_callers.includes('programmatic'))) {
      throw new UserError(PROGRAMMATIC);
    }
    return { type, id: `${prefix}.${name}`, name, args: hostedArgs(data) };
  }
  if (tool.type === 'computer') {
    const dimensions = tool.dimensions;
    if (typeof tool.environment !== 'string' || !Array.isArray(dimensions) || dimensions.length !== 2 || !dimensions.every((value) => typeof value === 'number')) {
      throw new UserError('The AI SDK adapter requires computer tools to include environment and dimensions metadata.');
    }
    return { type, id: `${prefix}.${name}`, name, args: { environment: tool.environment, display_width: dimensions[0], display_height: dimensions[1] } };
  }
  throw new UserError(`The AI SDK adapter cannot send a tool of type ${JSON.stringify(tool.type)} (${JSON.stringify(tool).slice(0, 200)}).`);
}

/** A hosted tool's arguments: `providerData.args`, else its `providerData` without `type` / `name`. */
function hostedArgs(data: Record<string, unknown> | undefined): Record<string, unknown> {
  if (data === undefined) return {};
  if (isObject(data.args)) return data.args;
  const { type: _type, name: _name, args: _args, ...rest } = data;
  return rest;
}

/** `modelSettings.toolChoice` as the AI SDK's: `auto` / `required` / `none`, or a tool by name. */
export function toolChoice(choice: string | undefined | null): { type: 'auto' | 'required' | 'none' } | { type: 'tool'; toolName: string } | undefined {
  if (!choice) return undefined;
  if (choice === 'auto' || choice === 'required' || choice === 'none') return { type: choice };
  return { type: 'tool', toolName: choice };
}

/** The agent's output type as the AI SDK's `responseFormat`: `text`, or `json` with the schema and its name. */
export function responseFormat(outputType: SerializedOutputType): { type: 'text' } | { type: 'json'; name: string; schema: Record<string, unknown> } {
  if (outputType === 'text') return { type: 'text' };
  return { type: 'json', name: outputType.name, schema: outputType.schema as Record<string, unknown> };
}
