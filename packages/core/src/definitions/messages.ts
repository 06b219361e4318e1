import type {
  AssistantContent,
  AssistantMessageItem,
  RunItem,
  SystemMessageItem,
  UserContent,
  UserMessageItem,
} from '@baton/types';

type ProviderData = Record<string, unknown>;

/** A user message item: text becomes one `input_text` part; parts pass through. */
export function user(input: string | UserContent[], options?: ProviderData): UserMessageItem {
  const item: UserMessageItem = { type: 'message', role: 'user', content: typeof input === 'string' ? [{ type: 'input_text', text: input }] : input };
  return withProviderData(item, options);
}

/** A system message item. */
export function system(input: string, options?: ProviderData): SystemMessageItem {
  return withProviderData<SystemMessageItem>({ type: 'message', role: 'system', content: input }, options);
}

/** A completed assistant message item: text becomes one `output_text` part; parts pass through. */
export function assistant(content: string | AssistantContent[], options?: ProviderData): AssistantMessageItem {
  const item: AssistantMessageItem = {
    type: 'message',
    role: 'assistant',
    content: typeof content === 'string' ? [{ type: 'output_text', text: content }] : content,
    status: 'completed',
  };
  return withProviderData(item, options);
}

/** The text of every message output item, joined (the reference's `extractAllTextOutput`). */
export function extractAllTextOutput(items: readonly RunItem[]): string {
  let text = '';
  for (const item of items) if (item.type === 'message_output_item') text += item.content;
  return text;
}

function withProviderData<T extends { providerData?: ProviderData }>(item: T, providerData: ProviderData | undefined): T {
  if (providerData !== undefined) item.providerData = providerData;
  return item;
}
