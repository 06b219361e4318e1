import type { ModelRequest } from '@baton/types';
import { compact, isRecord, providerFields, type Json } from '../json.js';
import { splitTransportOverrides, type TransportOverrides } from '../transportOverrides.js';
import { toResponsesInput, userContent } from './inputItems.js';
import { responsesTools, usesPreviewComputerTool } from './toolDefinitions.js';
import { responsesToolChoice } from './toolChoice.js';

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
  const requestModel = shouldSendModel ? model : undefined;
  const { providerData, overrides } = splitTransportOverrides(settings.providerData);
  const { tools, include } = responsesTools(request.tools, request.handoffs, {
    usePreviewComputerTool: usesPreviewComputerTool(requestModel, settings.toolChoice),
  });
  const allowPromptSuppliedTools = Boolean(request.prompt) && !(request.toolsExplicitlyProvided === true && tools.length === 0);
  const toolChoice = responsesToolChoice(settings.toolChoice, {
    tools: [...tools, ...extraBodyTools(overrides)],
    model: requestModel,
    allowPromptSuppliedTools,
  });
  const { text: providerText, ...bodyData } = providerData;
  if (settings.reasoning) bodyData.reasoning = { ...settings.reasoning, ...(isRecord(bodyData.reasoning) ? bodyData.reasoning : {}) };
  const text = settings.text ? { ...settings.text, ...(isRecord(providerText) ? providerText : {}) } : providerText;
  const shouldSendTools = tools.length > 0 || request.toolsExplicitlyProvided === true || !request.prompt;
  let requestData: Json = compact({
    model: requestModel,
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
    context_management: settings.contextManagement?.map((entry) => providerFields(entry, [])),
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
