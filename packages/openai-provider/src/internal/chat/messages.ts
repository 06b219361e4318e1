import { UserError, type AgentInputItem, type AssistantMessageItem, type FunctionCallResultOutput, type UserContent } from '@baton/types';
import { compact, type Json } from '../json.js';

const PROGRAMMATIC_HISTORY = 'Programmatic Tool Calling history is not supported for chat completions. Please use the Responses API.';

/** A function name Chat Completions accepts (a dotted, namespace-qualified name is not one). */
const FUNCTION_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Protocol items to Chat Completions `messages`. An assistant message and the function calls that
 * follow it become one assistant message with `tool_calls`; each function result becomes a `tool`
 * message. Reasoning items are not sent back (the API has no place for them).
 */
export function toChatMessages(input: string | AgentInputItem[], systemInstructions: string | undefined, strict = false): Json[] {
  const out: Json[] = [];
  if (systemInstructions) out.push({ role: 'system', content: systemInstructions });
  if (typeof input === 'string') {
    out.push({ role: 'user', content: input });
    return out;
  }
  let assistant: Json | undefined;
  const flush = () => {
    if (assistant !== undefined) out.push(assistant);
    assistant = undefined;
  };
  for (const item of input) {
    if (item.type === undefined || item.type === 'message') {
      flush();
      if (item.role === 'system') out.push({ role: 'system', content: item.content });
      else if (item.role === 'user') out.push({ role: 'user', content: typeof item.content === 'string' ? item.content : item.content.map(userPart) });
      else if (item.role === 'assistant') assistant = assistantMessage(item);
      else throw new UserError(`Unsupported message role in input: ${JSON.stringify((item as { role?: unknown }).role)}.`);
      continue;
    }
    switch (item.type) {
      case 'function_call': {
        if (item.caller?.type === 'program') throw new UserError(PROGRAMMATIC_HISTORY);
        if (!FUNCTION_NAME.test(item.name) || (typeof item.namespace === 'string' && item.namespace.trim() !== '')) {
          throw new UserError(
            'Namespaced function call history is not supported for chat completions. Please use the Responses API when replaying namespaced tool calls.',
          );
        }
        assistant ??= { role: 'assistant', content: null };
        const calls = (assistant.tool_calls ??= []) as Json[];
        calls.push({ id: item.callId, type: 'function', function: { name: item.name, arguments: item.arguments } });
        break;
      }
      case 'function_call_result':
        if (item.caller?.type === 'program') throw new UserError(PROGRAMMATIC_HISTORY);
        flush();
        out.push({ role: 'tool', tool_call_id: item.callId, content: toolText(item.output, strict) });
        break;
      case 'reasoning':
        break;
      case 'computer_call':
      case 'computer_call_result':
      case 'shell_call':
      case 'shell_call_output':
      case 'apply_patch_call':
      case 'apply_patch_call_output':
        throw new UserError(`Computer use calls are not supported for chat completions. Got item: ${JSON.stringify(item)}`);
      case 'tool_search_call':
      case 'tool_search_output':
        throw new UserError('Tool search items are not supported for chat completions. Please use the Responses API when replaying tool search history.');
      case 'compaction':
        throw new UserError('Compaction items are not supported for chat completions. Please use the Responses API when working with compaction.');
      case 'program':
      case 'program_output':
        throw new UserError(PROGRAMMATIC_HISTORY);
      case 'unknown':
        throw new UserError(
          `The Chat Completions API cannot replay this provider item (use the Responses API for hosted tools): ${JSON.stringify(item)}.`,
        );
      default:
        throw new UserError(`Unsupported input item for the Chat Completions API: ${JSON.stringify(item)}.`);
    }
  }
  flush();
  return out;
}

function assistantMessage(item: AssistantMessageItem): Json {
  const text = item.content.filter((part) => part.type === 'output_text').map((part) => part.text);
  const refusal = item.content.filter((part) => part.type === 'refusal').map((part) => part.refusal);
  return compact({
    role: 'assistant',
    content: text.length > 0 ? text.join('') : null,
    refusal: refusal.length > 0 ? refusal.join('') : undefined,
  });
}

function userPart(part: UserContent): Json {
  switch (part.type) {
    case 'input_text':
      return { type: 'text', text: part.text };
    case 'input_image':
      if (typeof part.image !== 'string') {
        throw new UserError('Chat Completions takes images as a URL or a data URL, not a file id; use the Responses API for file ids.');
      }
      return { type: 'image_url', image_url: compact({ url: part.image, detail: part.detail }) };
    case 'input_file': {
      const file = part.file;
      if (typeof file === 'string' && file.startsWith('data:')) return { type: 'file', file: compact({ file_data: file, filename: part.filename }) };
      if (typeof file === 'object' && 'id' in file) return { type: 'file', file: compact({ file_id: file.id, filename: part.filename }) };
      throw new UserError('Chat Completions takes files as a data URL or { id }; use the Responses API for file URLs.');
    }
    default:
      throw new UserError(`Unsupported user content part: ${JSON.stringify(part)}.`);
  }
}

/** What the reference sends in place of a tool output Chat Completions cannot carry (images only). */
export const OMITTED_TOOL_OUTPUT = '[tool output omitted]';

/**
 * A Chat Completions tool message holds text only: the text parts, joined; an output with no text
 * (an image) becomes the reference's placeholder, so the request stays the reference's (with
 * `strictFeatureValidation`, a `UserError`).
 */
function toolText(output: FunctionCallResultOutput, strict: boolean): string {
  if (typeof output === 'string') return output;
  const parts = Array.isArray(output) ? output : [output];
  const texts = parts.flatMap((part) => (part.type === 'text' || part.type === 'input_text' ? [part.text] : []));
  if (texts.length > 0) return texts.join('');
  const message = 'Chat Completions tool outputs cannot be empty or contain only non-text content.';
  if (strict) throw new UserError(message);
  return OMITTED_TOOL_OUTPUT;
}
