import type { AgentOutputItem, AssistantContent, ItemStatus, ReasoningItem } from '@baton/types';
import { isRecord, rest, type Json } from '../json.js';
import { hostedCallFromOutput } from './hostedCalls.js';
import { callerFromApi, toolItemFromOutput } from './toolItems.js';

/** Responses API `output` items to protocol items; items Baton does not model become `unknown`. */
export function fromResponsesOutput(output: unknown): AgentOutputItem[] {
  if (!Array.isArray(output)) return [];
  return output.filter(isRecord).map(toOutputItem);
}

function toOutputItem(item: Json): AgentOutputItem {
  const id = typeof item.id === 'string' ? item.id : undefined;
  if (item.type === 'message' && item.role === 'assistant' && Array.isArray(item.content)) {
    // Always an object, empty or not, as the reference keeps it; a known phase also on the item.
    const providerData = rest(item, ['id', 'type', 'role', 'status', 'content']) ?? {};
    const phase = item.phase === 'commentary' || item.phase === 'final_answer' ? item.phase : undefined;
    return withOptional(
      {
        type: 'message',
        role: 'assistant',
        status: statusOf(item.status) ?? 'completed',
        content: item.content.filter(isRecord).flatMap(messageContent),
      },
      { id, phase, providerData },
    );
  }
  if (item.type === 'function_call' && typeof item.name === 'string' && typeof item.call_id === 'string') {
    const providerData = rest(item, ['id', 'type', 'call_id', 'name', 'arguments', 'status', 'namespace', 'caller']);
    return withOptional(
      {
        type: 'function_call',
        callId: item.call_id,
        name: item.name,
        // Kept exactly as sent, even when it is not valid JSON: the run loop answers the model with a parse error.
        arguments: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
      },
      {
        id,
        status: statusOf(item.status),
        namespace: typeof item.namespace === 'string' ? item.namespace : undefined,
        ...callerFromApi(item.caller),
        providerData,
      },
    );
  }
  if (item.type === 'reasoning') return reasoning(item, id);
  return toolItemFromOutput(item) ?? hostedCallFromOutput(item) ?? withOptional({ type: 'unknown', providerData: item }, { id });
}

function messageContent(part: Json): AssistantContent[] {
  if (part.type === 'output_text' && typeof part.text === 'string') {
    return [withOptional({ type: 'output_text', text: part.text }, { providerData: rest(part, ['type', 'text']) })];
  }
  if (part.type === 'refusal' && typeof part.refusal === 'string') {
    return [withOptional({ type: 'refusal', refusal: part.refusal }, { providerData: rest(part, ['type', 'refusal']) })];
  }
  return [];
}

function reasoning(item: Json, id: string | undefined): ReasoningItem {
  const summary = Array.isArray(item.summary) ? item.summary.filter(isRecord) : [];
  const content = Array.isArray(item.content) ? item.content.filter(isRecord) : [];
  const out: ReasoningItem = {
    type: 'reasoning',
    content: summary.map((part) => ({ type: 'input_text', text: String(part.text ?? '') })),
  };
  if (id !== undefined) out.id = id;
  if (content.length > 0) out.rawContent = content.map((part) => ({ type: 'reasoning_text', text: String(part.text ?? '') }));
  if (typeof item.encrypted_content === 'string') out.encryptedContent = item.encrypted_content;
  const providerData = rest(item, ['id', 'type', 'summary', 'content', 'encrypted_content']);
  if (providerData !== undefined) out.providerData = providerData;
  return out;
}

function statusOf(value: unknown): ItemStatus | undefined {
  return value === 'in_progress' || value === 'completed' || value === 'incomplete' ? value : undefined;
}

/** Sets the optional fields that are defined (the types use exact optional properties). */
export function withOptional<T extends object>(base: T, optional: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) out[key] = value;
  return out as unknown as T;
}
