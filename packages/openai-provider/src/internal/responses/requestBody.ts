import { UserError, type ModelRequest, type SerializedHandoff, type SerializedTool } from '@baton/types';
import { compact, isRecord, type Json } from '../json.js';
import { checkRequiredChoice, checkToolChoice } from '../toolChoice.js';
import { toResponsesInput } from './inputItems.js';
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

/** The body of `POST /v1/responses` for a model request. */
export function responsesRequestBody(model: string, request: ModelRequest, stream: boolean): Json {
  const settings = request.modelSettings;
  const include: string[] = [];
  const tools = [
    ...request.tools.map((tool) => {
      const converted = responsesTool(tool);
      if (converted.include !== undefined && !include.includes(converted.include)) include.push(converted.include);
      return converted.tool;
    }),
    ...request.handoffs.map(handoffTool),
  ];
  const hasTools = tools.length > 0;
  checkRequiredChoice(settings.toolChoice, tools.length);
  const text = compact({
    format: request.outputType === 'text' ? undefined : request.outputType,
    verbosity: settings.text?.verbosity ?? undefined,
  });
  const reasoning = settings.reasoning ? compact({ effort: settings.reasoning.effort ?? undefined, summary: settings.reasoning.summary ?? undefined }) : undefined;
  return compact({
    model,
    instructions: request.systemInstructions ? request.systemInstructions : undefined,
    input: toResponsesInput(request.input),
    tools,
    tool_choice: responsesToolChoice(settings.toolChoice, request),
    parallel_tool_calls: hasTools ? settings.parallelToolCalls : undefined,
    text: Object.keys(text).length > 0 ? text : undefined,
    temperature: settings.temperature,
    top_p: settings.topP,
    max_output_tokens: settings.maxTokens,
    truncation: settings.truncation,
    store: settings.store,
    reasoning: reasoning && Object.keys(reasoning).length > 0 ? reasoning : undefined,
    // The API treats these two as mutually exclusive: a conversation wins.
    conversation: request.conversationId,
    previous_response_id: request.conversationId === undefined ? request.previousResponseId : undefined,
    // `include` and `stream` always present, as the reference sends them.
    include,
    stream,
    ...(isRecord(settings.providerData) ? settings.providerData : {}),
  });
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

function responsesToolChoice(choice: string | undefined, request: ModelRequest): unknown {
  if (choice === undefined || choice === 'auto' || choice === 'required' || choice === 'none') return choice;
  if (HOSTED_TOOL_CHOICES.has(choice)) return { type: choice };
  checkToolChoice(choice, request);
  return { type: 'function', name: choice };
}
