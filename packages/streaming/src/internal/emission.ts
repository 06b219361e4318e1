import type { ToolEmission } from '@baton/types';

/** Event types a streaming tool may yield besides `{ type: 'notify' }`: events of a run it drives. */
const REQUIRED_FIELDS: Record<string, readonly (readonly [field: string, kind: 'string' | 'object' | 'defined'])[]> = {
  raw_model_stream_event: [['data', 'object']],
  run_item_stream_event: [['name', 'string'], ['item', 'object']],
  agent_updated_stream_event: [['agent', 'object']],
  streaming_tool_context_event: [['toolName', 'string'], ['toolCallId', 'string'], ['internalEvent', 'object']],
  notify_stream_event: [['toolName', 'string'], ['toolCallId', 'string']],
  tool_stream_start_event: [['toolName', 'string'], ['toolCallId', 'string']],
  tool_stream_end_event: [['toolName', 'string'], ['toolCallId', 'string']],
};

/**
 * Why `value` is not something a streaming tool may yield, or `undefined` when it is. Checked the
 * same way in streamed and non-streamed runs, so a bad yield is found by the first test that runs
 * the tool at all, not only by a streamed one.
 */
export function emissionProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `got ${describe(value)}`;
  const type = (value as { type?: unknown }).type;
  if (type === 'notify') {
    if (!('data' in value)) return "got { type: 'notify' } without `data`";
    const tag = (value as { tag?: unknown }).tag;
    if (tag !== undefined && typeof tag !== 'string') return `got a notification whose \`tag\` is ${describe(tag)}, not a string`;
    return undefined;
  }
  if (typeof type !== 'string') return `got an object without a string \`type\` (keys: ${Object.keys(value).slice(0, 5).join(', ') || 'none'})`;
  const fields = REQUIRED_FIELDS[type];
  if (!fields) return `got an object of unknown type ${JSON.stringify(type)}`;
  for (const [field, kind] of fields) {
    const v = (value as Record<string, unknown>)[field];
    const ok = kind === 'defined' ? v !== undefined : kind === 'object' ? typeof v === 'object' && v !== null : typeof v === kind;
    if (!ok) return `got a ${JSON.stringify(type)} whose \`${field}\` is ${describe(v)}`;
  }
  return undefined;
}

export function isToolEmission(value: unknown): value is ToolEmission {
  return emissionProblem(value) === undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
