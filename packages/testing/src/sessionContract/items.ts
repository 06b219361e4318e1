import type { AgentInputItem, FunctionCallItem } from '@baton/types';

export const user = (text: string): AgentInputItem => ({ role: 'user', content: [{ type: 'input_text', text }] }) as AgentInputItem;

export const call = (callId: string, args: Record<string, unknown>, id = `${callId}-item`): FunctionCallItem => ({
  type: 'function_call',
  id,
  callId,
  name: 'lookup',
  status: 'completed',
  arguments: JSON.stringify(args),
});

/** One item of each kind a run writes, with nested provider data, to check nothing is lost on the way. */
export const everyKind = (): AgentInputItem[] =>
  [
    { type: 'message', role: 'user', content: 'plain text' },
    { role: 'user', content: [{ type: 'input_text', text: 'parts' }, { type: 'input_image', image: 'https://example.com/cat.png', detail: 'low' }] },
    { type: 'message', role: 'system', content: 'be brief' },
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'héllo ✓ "quoted" \\ \n line', providerData: { annotations: [] } }],
      providerData: { nested: { deep: [1, 2.5, null, true, 'x'] } },
    },
    { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'thinking' }], providerData: { encrypted: 'abc==' } },
    { type: 'function_call', id: 'fc_1', callId: 'call_1', name: 'weather', status: 'completed', arguments: '{"city":"Paris"}' },
    { type: 'function_call_result', callId: 'call_1', name: 'weather', status: 'completed', output: [{ type: 'input_text', text: 'sunny' }] },
    { type: 'function_call_result', callId: 'call_2', name: 'weather', status: 'completed', output: { type: 'text', text: 'rain' } },
  ] as unknown as AgentInputItem[];

/** The text of an item (the first text part, or the string content or output). */
export function textOf(item: AgentInputItem | undefined): string | undefined {
  if (!item) return undefined;
  const record = item as { content?: unknown; output?: unknown };
  const value = record.content ?? record.output;
  if (typeof value === 'string') return value;
  const parts = Array.isArray(value) ? value : [value];
  const part = parts.find((p): p is { text: string } => typeof (p as { text?: unknown } | undefined)?.text === 'string');
  return part?.text;
}

/** `kind:text` per item (`user:hello`, `assistant:done`, `call:pay`, `result:pay=paid`): a history at a glance. */
export function outline(items: readonly AgentInputItem[]): string[] {
  return items.map((item) => {
    const record = item as { type?: string; role?: string; name?: string };
    if (record.type === 'function_call') return `call:${record.name}`;
    if (record.type === 'function_call_result') return `result:${record.name}=${textOf(item)}`;
    if (record.type === undefined || record.type === 'message') return `${record.role}:${textOf(item)}`;
    return record.type;
  });
}
