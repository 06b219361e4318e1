import { UserError, type ModelRequest, type SerializedHandoff, type SerializedTool } from '@baton/types';
import { compact, isRecord, type Json } from '../json.js';
import { splitTransportOverrides, type TransportOverrides } from '../transportOverrides.js';
import { toResponsesInput, userContent } from './inputItems.js';
import { hostedToolDefinition } from './hostedCalls.js';

/** Tool choices that name a hosted tool type rather than a function. */
const HOSTED_TOOL_CHOICES = new Set([
  'file_search',
  'web_search',
  'web_search_preview',
  'code_interpreter',
  'image_generation',
  'mcp',
  'computer_use_preview',
]);

/** A built `POST /v1/responses` request: its body and what goes on the HTTP request itself. */
export interface ResponsesCreateRequest {
  readonly requestData: Json;
  readonly signal: AbortSignal | undefined;
  readonly transportExtraHeaders: Json | undefined;
  readonly transportExtraQuery: Json | undefined;
}

/**
 * The `POST /v1/responses` request for a model request, with the reference's rules: the model is
 * left out when a stored prompt picks it (unless `overridePromptModel`); tools are left out when
 * a prompt may supply them (no tools given and not `toolsExplicitlyProvided`); `providerData`
 * keys go into the body (`reasoning` and `text` merged over the settings'), `extra_body` over
 * everything, `extra_headers` / `extra_query` onto the HTTP request; `parallel_tool_calls` is sent
 * only when some tools can be called and `providerData` does not set it; `stream` always says
 * how the request is sent. A tool choice naming no available tool is a `UserError`, unless a
 * prompt may supply it.
 */
export function buildResponsesCreateRequest(model: string, request: ModelRequest, stream: boolean): ResponsesCreateRequest {
  const settings = request.modelSettings;
  const shouldSendModel = !request.prompt || request.overridePromptModel === true;
  const { providerData, overrides } = splitTransportOverrides(settings.providerData);
  const { tools, include } = requestTools(request);
  const choiceTools = [...tools, ...extraBodyTools(overrides)];
  const allowPromptSuppliedTools = Boolean(request.prompt) && !(request.toolsExplicitlyProvided === true && tools.length === 0);
  const toolChoice = compatibleToolChoice(settings.toolChoice, choiceTools, allowPromptSuppliedTools);
  const { text: providerText, ...bodyData } = providerData;
  if (settings.reasoning) bodyData.reasoning = { ...settings.reasoning, ...(isRecord(bodyData.reasoning) ? bodyData.reasoning : {}) };
  const text = settings.text ? { ...settings.text, ...(isRecord(providerText) ? providerText : {}) } : providerText;
  const shouldSendTools = tools.length > 0 || request.toolsExplicitlyProvided === true || !request.prompt;
  let requestData: Json = compact({
    model: shouldSendModel ? model : undefined,
    input: toResponsesInput(request.input),
    // `include` always present, as the reference sends it.
    include,
    tools: shouldSendTools ? tools : undefined,
    // The API treats these two as mutually exclusive: a conversation wins.
    conversation: request.conversationId,
    previous_response_id: request.conversationId ? undefined : request.previousResponseId,
    prompt: promptOf(request.prompt),
    temperature: settings.temperature,
    top_p: settings.topP,
    truncation: settings.truncation,
    max_output_tokens: settings.maxTokens,
    tool_choice: toolChoice,
    stream,
    text: request.outputType === 'text' ? text : { ...(isRecord(text) ? text : {}), format: request.outputType },
    store: settings.store,
    prompt_cache_retention: settings.promptCacheRetention === 'in-memory' ? 'in_memory' : settings.promptCacheRetention,
    prompt_cache_options: settings.promptCacheOptions,
    ...bodyData,
  });
  // Always a key, as the reference's (blank instructions are none; JSON leaves an undefined out).
  requestData = {
    ...(requestData.model === undefined ? {} : { model: requestData.model }),
    instructions: typeof request.systemInstructions === 'string' && request.systemInstructions.trim() !== '' ? request.systemInstructions : undefined,
    ...requestData,
  };
  if (overrides.extraBody) requestData = { ...requestData, ...overrides.extraBody };
  const hasTools = Array.isArray(requestData.tools) && requestData.tools.length > 0;
  const promptMaySupplyTools = Boolean(request.prompt) && requestData.tools === undefined && request.toolsExplicitlyProvided !== true;
  if (!Object.hasOwn(requestData, 'parallel_tool_calls') && typeof settings.parallelToolCalls === 'boolean' && (hasTools || promptMaySupplyTools)) {
    requestData.parallel_tool_calls = settings.parallelToolCalls;
  }
  // The calling path decides, even when extra_body names `stream`.
  requestData.stream = stream;
  return { requestData, signal: request.signal, transportExtraHeaders: overrides.extraHeaders, transportExtraQuery: overrides.extraQuery };
}

/** The body alone (see `buildResponsesCreateRequest`). */
export function responsesRequestBody(model: string, request: ModelRequest, stream: boolean): Json {
  return buildResponsesCreateRequest(model, request, stream).requestData;
}

function requestTools(request: ModelRequest): { tools: Json[]; include: string[] } {
  const include: string[] = [];
  const tools = [
    ...request.tools.map((tool) => {
      const converted = responsesTool(tool);
      if (converted.include !== undefined && !include.includes(converted.include)) include.push(converted.include);
      return converted.tool;
    }),
    ...request.handoffs.map(handoffTool),
  ];
  return { tools, include };
}

function responsesTool(tool: SerializedTool): { tool: Json; include?: string } {
  if (tool.type === 'function') {
    return { tool: { type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strict } };
  }
  if (tool.type === 'hosted_tool' && isRecord(tool.providerData)) return hostedToolDefinition(tool.name, tool.providerData);
  throw new UserError(`The OpenAI Responses model does not support tools of type "${tool.type}" (tool "${tool.name}").`);
}

/** A handoff is offered to the model as a function tool. */
export function handoffTool(handoff: SerializedHandoff): Json {
  return {
    type: 'function',
    name: handoff.toolName,
    description: handoff.toolDescription,
    parameters: handoff.inputJsonSchema,
    strict: handoff.strictJsonSchema,
  };
}

function extraBodyTools(overrides: TransportOverrides): Json[] {
  const tools = overrides.extraBody?.tools;
  return Array.isArray(tools) ? tools.filter(isRecord) : [];
}

/** The stored prompt as the API takes it: variables that are input content converted. */
function promptOf(prompt: ModelRequest['prompt']): Json | undefined {
  if (!prompt) return undefined;
  const variables: Json = {};
  for (const [key, value] of Object.entries(prompt.variables ?? {})) {
    if (typeof value === 'string') variables[key] = value;
    else if (isRecord(value)) variables[key] = userContent(value as never);
  }
  return compact({ id: prompt.promptId, version: prompt.version, variables });
}

/**
 * The `tool_choice` for the request: `auto` / `required` / `none` as they are, a hosted tool type
 * as `{ type }`, anything else as a function name. A choice no outgoing tool answers is a
 * `UserError` naming the tools there are, unless a stored prompt may supply the tool.
 */
function compatibleToolChoice(choice: string | undefined, tools: Json[], allowPromptSuppliedTools: boolean): unknown {
  if (choice === undefined || choice === 'auto' || choice === 'none') return choice;
  const converted: Json | 'required' = choice === 'required' ? 'required' : HOSTED_TOOL_CHOICES.has(choice) ? { type: choice } : { type: 'function', name: choice };
  if (allowPromptSuppliedTools || isAvailable(converted, tools)) return converted;
  const names = [...new Set(tools.map((tool) => (tool.type === 'function' && typeof tool.name === 'string' ? tool.name : String(tool.type))))];
  const available = names.length > 0 ? ` Available tools: ${names.join(', ')}.` : ' No tools are available in the outgoing Responses request.';
  if (converted === 'required') {
    throw new UserError(`modelSettings.toolChoice="required" requires at least one available tool in the outgoing Responses request.${available}`);
  }
  if (converted.type === 'function') {
    throw new UserError(`modelSettings.toolChoice="${String(converted.name)}" does not match any available tool in the outgoing Responses request.${available}`);
  }
  throw new UserError(`modelSettings.toolChoice="${String(converted.type)}" is unavailable in the outgoing Responses request.${available}`);
}

function isAvailable(choice: Json | 'required', tools: Json[]): boolean {
  if (choice === 'required') return tools.length > 0;
  if (choice.type === 'function') return tools.some((tool) => tool.type === 'function' && tool.name === choice.name);
  return tools.some((tool) => tool.type === choice.type || (choice.type === 'computer_use_preview' && tool.type === 'computer'));
}
