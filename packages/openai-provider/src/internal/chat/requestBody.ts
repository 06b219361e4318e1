import { UserError, type ModelRequest, type SerializedHandoff, type SerializedTool } from '@baton/types';
import { compact, isRecord, type Json } from '../json.js';
import { checkRequiredChoice, checkToolChoice } from '../toolChoice.js';
import { toChatMessages } from './messages.js';

/** The body of `POST /v1/chat/completions` for a model request. */
export function chatRequestBody(model: string, request: ModelRequest, stream: boolean): Json {
  if (request.previousResponseId !== undefined || request.conversationId !== undefined) {
    throw new UserError('previousResponseId and conversationId need the Responses API; the Chat Completions model cannot use them.');
  }
  const settings = request.modelSettings;
  const tools = [...request.tools.map(chatTool), ...request.handoffs.map(chatHandoffTool)];
  const hasTools = tools.length > 0;
  checkRequiredChoice(settings.toolChoice, tools.length);
  return compact({
    model,
    messages: toChatMessages(request.input, request.systemInstructions),
    tools: hasTools ? tools : undefined,
    tool_choice: chatToolChoice(settings.toolChoice, request),
    parallel_tool_calls: hasTools ? settings.parallelToolCalls : undefined,
    response_format:
      request.outputType === 'text'
        ? undefined
        : {
            type: 'json_schema',
            json_schema: { name: request.outputType.name, strict: request.outputType.strict, schema: request.outputType.schema },
          },
    temperature: settings.temperature,
    top_p: settings.topP,
    frequency_penalty: settings.frequencyPenalty,
    presence_penalty: settings.presencePenalty,
    max_tokens: settings.maxTokens,
    reasoning_effort: settings.reasoning?.effort ?? undefined,
    verbosity: settings.text?.verbosity ?? undefined,
    store: settings.store,
    stream,
    stream_options: stream ? { include_usage: true } : undefined,
    ...(isRecord(settings.providerData) ? settings.providerData : {}),
  });
}

function chatTool(tool: SerializedTool): Json {
  if (tool.type !== 'function') {
    throw new UserError(`The Chat Completions API supports function tools only; tool "${tool.name}" has type "${tool.type}" (use the Responses API).`);
  }
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strict } };
}

/** A handoff offered as a function tool, without `strict` (as the reference's Chat Completions model sends it). */
function chatHandoffTool(handoff: SerializedHandoff): Json {
  return {
    type: 'function',
    function: { name: handoff.toolName, description: handoff.toolDescription, parameters: handoff.inputJsonSchema },
  };
}

function chatToolChoice(choice: string | undefined, request: ModelRequest): unknown {
  if (choice === undefined || choice === 'auto' || choice === 'required' || choice === 'none') return choice;
  checkToolChoice(choice, request);
  return { type: 'function', function: { name: choice } };
}
