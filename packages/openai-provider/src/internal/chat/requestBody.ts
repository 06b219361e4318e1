import { UserError, type ModelRequest, type SerializedHandoff, type SerializedTool } from '@baton/types';
import { compact, isRecord, type Json } from '../json.js';
import { toChatMessages, type ChatMessageOptions } from './messages.js';

/** gpt-5.6 and its sol / terra / luna variants (dated or not). */
const GPT_56_MODEL = /^gpt-5\.6(?:-(?:sol|terra|luna)(?:-\d{4}-\d{2}-\d{2})?)?$/;

/** What the runner tells a model besides the request proper (the reference's `request._internal`). */
interface RequestInternals {
  /** The reasoning effort came from the model's default settings, not from the developer. */
  readonly reasoningEffortImplicit?: boolean;
}

/**
 * The body of `POST /v1/chat/completions` for a model request, as the reference builds it:
 * settings first, `providerData` over them, then `reasoning.effort` (unless `providerData` sets
 * `reasoning_effort`) and `text.verbosity` from the settings, and `response_format` for structured
 * output; `parallel_tool_calls` only with tools. An effort that only came from gpt-5.x defaults
 * (`request._internal.reasoningEffortImplicit`) is left out on gpt-5.6 with function tools.
 */
export function chatRequestBody(model: string, request: ModelRequest, stream: boolean, options: ChatMessageOptions = { strict: false, warn: () => {} }): Json {
  const settings = request.modelSettings;
  const tools = [...request.tools.map(chatTool), ...request.handoffs.map(chatHandoffTool)];
  const providerData: Json = isRecord(settings.providerData) ? { ...settings.providerData } : {};
  const internals = (request as { _internal?: RequestInternals })._internal;
  // The runner does not yet say whether an effort is the model's default, so an effort in
  // providerData is kept over the settings' (it is always the developer's own).
  const omitImplicitEffort =
    providerData.reasoning_effort !== undefined || (internals?.reasoningEffortImplicit === true && tools.length > 0 && GPT_56_MODEL.test(model));
  if (settings.reasoning?.effort && !omitImplicitEffort) providerData.reasoning_effort = settings.reasoning.effort;
  if (settings.text?.verbosity) providerData.verbosity = settings.text.verbosity;
  const body: Json = compact({
    model,
    messages: toChatMessages(request.input, request.systemInstructions, options),
    tools: tools.length > 0 ? tools : undefined,
    temperature: settings.temperature,
    top_p: settings.topP,
    frequency_penalty: settings.frequencyPenalty,
    presence_penalty: settings.presencePenalty,
    max_tokens: settings.maxTokens,
    tool_choice: chatToolChoice(settings.toolChoice, tools),
    parallel_tool_calls: tools.length > 0 && typeof settings.parallelToolCalls === 'boolean' ? settings.parallelToolCalls : undefined,
    stream,
    stream_options: stream ? { include_usage: true } : undefined,
    store: settings.store,
    prompt_cache_retention: settings.promptCacheRetention === 'in-memory' ? 'in_memory' : settings.promptCacheRetention,
    prompt_cache_options: settings.promptCacheOptions,
    ...providerData,
  });
  if (!Array.isArray(body.tools) || body.tools.length === 0) delete body.parallel_tool_calls;
  if (request.outputType !== 'text') {
    body.response_format = { type: 'json_schema', json_schema: { name: request.outputType.name, strict: request.outputType.strict, schema: request.outputType.schema } };
  }
  return body;
}

function chatTool(tool: SerializedTool): Json {
  const fields = tool as Json;
  if (tool.type === 'hosted_tool' && isRecord(fields.providerData)) {
    const data = fields.providerData;
    if (data.type === 'programmatic_tool_calling' || (Array.isArray(data.allowed_callers) && data.allowed_callers.includes('programmatic'))) {
      throw new UserError('Programmatic Tool Calling is only supported with the Responses API.');
    }
  }
  if (Array.isArray(fields.allowedCallers) && fields.allowedCallers.includes('programmatic')) {
    throw new UserError('Tools callable from Programmatic Tool Calling are only supported with the Responses API.');
  }
  if (tool.type === 'function' && fields.outputSchema) throw new UserError('Function tool outputSchema is only supported with the Responses API.');
  if (tool.type !== 'function') {
    throw new UserError(`The Chat Completions API supports function tools only; tool "${tool.name}" has type "${tool.type}" (use the Responses API).`);
  }
  if (typeof fields.namespace === 'string' && fields.namespace.trim() !== '') {
    throw new UserError('Namespaced function tools created with toolNamespace() are only supported with the Responses API.');
  }
  if (fields.deferLoading === true) throw new UserError('Function tools with deferLoading: true are only supported with the Responses API.');
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strict } };
}

/** A handoff offered as a function tool, without `strict` (as the reference's Chat Completions model sends it). */
function chatHandoffTool(handoff: SerializedHandoff): Json {
  return {
    type: 'function',
    function: { name: handoff.toolName, description: handoff.toolDescription, parameters: handoff.inputJsonSchema },
  };
}

/** `tool_choice`, checked against the outgoing tools with the reference's messages. */
function chatToolChoice(choice: string | undefined, tools: Json[]): unknown {
  if (choice === undefined || choice === null || choice === 'auto' || choice === 'none') return choice ?? undefined;
  if (choice === 'required') {
    if (tools.length === 0) throw new UserError('modelSettings.toolChoice="required" requires at least one available tool in Chat Completions mode.');
    return choice;
  }
  const names = new Set(tools.map((tool) => (isRecord(tool.function) ? tool.function.name : undefined)));
  if (!names.has(choice)) throw new UserError(`modelSettings.toolChoice="${choice}" does not match any available tool or handoff in Chat Completions mode.`);
  return { type: 'function', function: { name: choice } };
}
