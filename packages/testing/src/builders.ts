import type { AssistantMessageItem, FunctionCallItem, ProviderData } from '@baton/types';

export interface AssistantMessageOptions {
  id?: string;
  providerData?: ProviderData;
}

export interface FunctionCallOptions {
  /** The call id; generated (`call_<name>_<n>`) when omitted. */
  callId?: string;
  /** The item id; the call id when omitted. */
  id?: string;
  /** The tool namespace the function belongs to. */
  namespace?: string;
  providerData?: ProviderData;
}

/** An assistant message with one `output_text` part. */
export function assistantMessage(text: string, options: AssistantMessageOptions = {}): AssistantMessageItem {
  const item: AssistantMessageItem = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
  if (options.id !== undefined) item.id = options.id;
  if (options.providerData !== undefined) item.providerData = options.providerData;
  return item;
}

/** A function call; object arguments are JSON-encoded, strings are kept as they are (even invalid JSON). */
export function functionCall(name: string, args: string | Record<string, unknown> = {}, options: FunctionCallOptions = {}): FunctionCallItem {
  const callId = options.callId ?? `call_${name}_${nextId++}`;
  const item: FunctionCallItem = {
    type: 'function_call',
    name,
    callId,
    id: options.id ?? callId,
    status: 'completed',
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  };
  if (options.namespace !== undefined) item.namespace = options.namespace;
  if (options.providerData !== undefined) item.providerData = options.providerData;
  return item;
}

let nextId = 1;
