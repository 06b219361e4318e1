import { UserError, type AgentInputItem } from '@baton/types';
import { isRecord, type Json } from '../json.js';

/** What counts toward the default trigger: everything but user messages and compaction items. */
export function compactionCandidates(items: readonly AgentInputItem[]): AgentInputItem[] {
  return items.filter((item) => item.type !== 'compaction' && !(item.type === 'message' && 'role' in item && item.role === 'user'));
}

/** `auto` is `input` when the last response was not stored or its id is unknown, else `previous_response_id`. */
export function resolveCompactionMode(
  requested: 'previous_response_id' | 'input' | 'auto',
  responseId: string | undefined,
  store: boolean | undefined,
): 'previous_response_id' | 'input' {
  if (requested !== 'auto') return requested;
  return store === false || !responseId ? 'input' : 'previous_response_id';
}

/** A model name the compact endpoint may take: `gpt-*` (fine-tuned `ft:gpt-*` too) or the `o*` reasoning models. */
export function isCompactionModel(model: string): boolean {
  const trimmed = model.trim();
  if (trimmed === '') return false;
  const root = (trimmed.startsWith('ft:') ? trimmed.slice(3) : trimmed).split(':', 1)[0]!;
  return root.startsWith('gpt-') || /^o\d[a-z0-9-]*$/i.test(root);
}

/**
 * The compact endpoint's output as session items: user messages in the protocol's shape (their
 * content parts converted), everything else (the `compaction` item) as the API sent it.
 */
export function compactionOutputItems(output: unknown): AgentInputItem[] {
  if (!Array.isArray(output)) return [];
  return output.filter(isRecord).map((item) => (item.type === 'message' && item.role === 'user' ? userMessage(item) : (item as unknown as AgentInputItem)));
}

function userMessage(item: Json): AgentInputItem {
  const content = Array.isArray(item.content) ? item.content.filter(isRecord) : [];
  return { id: item.id as string, type: 'message', role: 'user', content: content.map(userPart) } as unknown as AgentInputItem;
}

function userPart(part: Json): Json {
  const detail = typeof part.detail === 'string' && part.detail !== '' ? { detail: part.detail } : {};
  const filename = typeof part.filename === 'string' && part.filename !== '' ? { filename: part.filename } : {};
  const present = (value: unknown): value is string => typeof value === 'string' && value !== '';
  switch (part.type) {
    case 'input_text':
      return { type: 'input_text', text: part.text };
    case 'input_image':
      if (present(part.image_url)) return { type: 'input_image', image: part.image_url, ...detail };
      if (present(part.file_id)) return { type: 'input_image', image: { id: part.file_id }, ...detail };
      throw new UserError('Compaction input_image item missing image_url or file_id.');
    case 'input_file':
      if (present(part.file_data)) return { type: 'input_file', file: part.file_data, ...filename };
      if (present(part.file_url)) return { type: 'input_file', file: part.file_url, ...filename };
      if (present(part.file_id)) return { type: 'input_file', file: { id: part.file_id }, ...filename };
      throw new UserError('Compaction input_file item missing file_data, file_url, or file_id.');
    default:
      throw new UserError(`Unsupported compaction message content type: ${JSON.stringify(part)}`);
  }
}
