import type { AssistantMessageItem, FunctionCallItem, ProviderData } from '@baton/types';

/** An assistant message with one `output_text` part. */
export function assistantMessage(text: string, options: { id?: string; providerData?: ProviderData } = {}): AssistantMessageItem {
  const item: AssistantMessageItem = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
  if (options.id !== undefined) item.id = options.id;
  if (options.providerData !== undefined) item.providerData = options.providerData;
  return item;
}

/** A function call; object arguments are JSON-encoded, strings are kept as they are (even invalid JSON). */
export function functionCall(
  name: string,
  args: string | Record<string, unknown> = {},
  options: { callId?: string; id?: string; providerData?: ProviderData } = {},
): FunctionCallItem {
  const callId = options.callId ?? `call_${name}_${nextId++}`;
  const item: FunctionCallItem = {
    type: 'function_call',
    name,
    callId,
    id: options.id ?? callId,
    status: 'completed',
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  };
  if (options.providerData !== undefined) item.providerData = options.providerData;
  return item;
}

let nextId = 1;
