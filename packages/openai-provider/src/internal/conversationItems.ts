import type { AgentInputItem, FunctionCallResultItem, UserContent } from '@baton/types';
import { isRecord, rest, type Json } from './json.js';
import { fromResponsesOutput, withOptional } from './responses/outputItems.js';

/**
 * An item of OpenAI's Conversations API as protocol items: user and system messages with their
 * content parts, tool outputs as `function_call_result` (named by the call id when the API does
 * not say the tool's name), and everything a response produces as the Responses models read it.
 */
export function fromConversationItem(item: Json): AgentInputItem[] {
  if (item.type === 'message' && (item.role === 'user' || item.role === 'system' || item.role === 'developer')) {
    const id = typeof item.id === 'string' ? item.id : undefined;
    if (item.role === 'user') return [withOptional({ type: 'message' as const, role: 'user' as const, content: userParts(item.content) }, { id })];
    return [withOptional({ type: 'message' as const, role: 'system' as const, content: systemText(item.content) }, { id })];
  }
  if (item.type === 'function_call_output' && typeof item.call_id === 'string') {
    const name = typeof item.name === 'string' ? item.name : item.call_id;
    const result: FunctionCallResultItem = {
      type: 'function_call_result',
      callId: item.call_id,
      name,
      status: item.status === 'in_progress' || item.status === 'incomplete' ? item.status : 'completed',
      output: toolOutput(item.output),
    };
    return [withOptional(result, { id: typeof item.id === 'string' ? item.id : undefined, providerData: rest(item, ['id', 'type', 'call_id', 'name', 'status', 'output']) })];
  }
  return fromResponsesOutput([item]);
}

function userParts(content: unknown): string | UserContent[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).flatMap((part): UserContent[] => {
    if (part.type === 'input_text' && typeof part.text === 'string') return [{ type: 'input_text', text: part.text }];
    if (part.type === 'input_image') {
      if (typeof part.image_url === 'string') return [withOptional({ type: 'input_image' as const, image: part.image_url }, { detail: stringOf(part.detail) })];
      if (typeof part.file_id === 'string') return [withOptional({ type: 'input_image' as const, image: { id: part.file_id } }, { detail: stringOf(part.detail) })];
    }
    if (part.type === 'input_file') {
      const filename = stringOf(part.filename);
      if (typeof part.file_data === 'string') return [withOptional({ type: 'input_file' as const, file: part.file_data }, { filename })];
      if (typeof part.file_url === 'string') return [withOptional({ type: 'input_file' as const, file: part.file_url }, { filename })];
      if (typeof part.file_id === 'string') return [withOptional({ type: 'input_file' as const, file: { id: part.file_id } }, { filename })];
    }
    return [];
  });
}

function systemText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .flatMap((part) => ((part.type === 'input_text' || part.type === 'text') && typeof part.text === 'string' ? [part.text] : []))
    .join('\n');
}

function toolOutput(output: unknown): FunctionCallResultItem['output'] {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return userParts(output) as UserContent[];
  return JSON.stringify(output ?? '');
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
