import { toInputContent } from './toolOutputParts.js';
import {
  RunItemStreamEvent,
  UserError,
  type AgentInputItem,
  type FunctionCallResultItem,
  type FunctionCallResultOutput,
  type ReasoningItemIdPolicy,
  type RunItem,
  type UserContent,
  type RunItemStreamEventName,
} from '@baton/types';

/** Run input as protocol items (a string becomes one user message). */
export function inputToItems(input: string | AgentInputItem[]): AgentInputItem[] {
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
}

/**
 * The protocol item a run item contributes to history (approval items contribute nothing): its raw
 * item, without a `status: null` (a response's "no status", not something to send back) and, under the `omit` policy,
 * a reasoning item without its id. A changed item is made once per run item and policy, so every
 * turn sees the same object for the same history entry.
 */
export function runItemToInputItem(item: RunItem, reasoningItemIdPolicy?: ReasoningItemIdPolicy): AgentInputItem | undefined {
  if (item.type === 'tool_approval_item') return undefined;
  const policy = item.type === 'reasoning_item' && reasoningItemIdPolicy === 'omit' ? 'omit' : 'preserve';
  const raw = item.rawItem as AgentInputItem & { status?: unknown; id?: unknown };
  const cached = normalizedInputs.get(item)?.[policy];
  if (cached && unchangedSince(raw, cached.fields)) return cached.item;
  let normalized = raw;
  if ('status' in normalized && normalized.status === null) {
    const { status: _status, ...withoutStatus } = normalized;
    normalized = withoutStatus as typeof raw;
  }
  if (policy === 'omit' && 'id' in normalized) {
    const { id: _id, ...withoutId } = normalized;
    normalized = withoutId as typeof raw;
  }
  if (normalized === raw) return raw;
  normalizedInputs.set(item, { ...normalizedInputs.get(item), [policy]: { item: normalized, fields: Object.entries(raw) } });
  return normalized;
}

/**
 * The normalized copy shares the raw item's nested values, so only a top-level field set anew (a
 * handoff's input filter rewriting a message's \`content\`, say) makes it stale.
 */
function unchangedSince(raw: object, fields: ReadonlyArray<readonly [string, unknown]>): boolean {
  const current = raw as Record<string, unknown>;
  return Object.keys(current).length === fields.length && fields.every(([key, value]) => Object.hasOwn(current, key) && current[key] === value);
}

type NormalizedInput = { readonly item: AgentInputItem; readonly fields: ReadonlyArray<readonly [string, unknown]> };

const normalizedInputs = new WeakMap<RunItem, { preserve?: NormalizedInput; omit?: NormalizedInput }>();

export function runItemsToInputItems(items: readonly RunItem[], reasoningItemIdPolicy?: ReasoningItemIdPolicy): AgentInputItem[] {
  const out: AgentInputItem[] = [];
  for (const item of items) {
    const raw = runItemToInputItem(item, reasoningItemIdPolicy);
    if (raw) out.push(raw);
  }
  return out;
}

/** The items a model response produces (everything but admitted input). */
export type ModelRunItem = Exclude<RunItem, { type: 'input_item' }>;

/** Admitted input (`input_item`) has no event: the caller added it. */
const EVENT_NAMES: Record<ModelRunItem['type'], RunItemStreamEventName> = {
  message_output_item: 'message_output_created',
  tool_call_item: 'tool_called',
  tool_call_output_item: 'tool_output',
  reasoning_item: 'reasoning_item_created',
  tool_search_call_item: 'tool_search_called',
  tool_search_output_item: 'tool_search_output_created',
  compaction_item: 'compaction_item_created',
  handoff_call_item: 'handoff_requested',
  handoff_output_item: 'handoff_occurred',
  tool_approval_item: 'tool_approval_requested',
};

export function itemEvent(item: ModelRunItem): RunItemStreamEvent {
  return new RunItemStreamEvent(EVENT_NAMES[item.type], item);
}

/** Tool outputs as the model sees them: strings unchanged, everything else JSON. */
export function toSmartString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A function call's output item; it names the call's namespace too (a `toolNamespace()` tool), as the reference's does. */
export function functionCallResult(callId: string, name: string, text: string, namespace?: string): FunctionCallResultItem {
  // Literals, not a conditional spread (V8's slow path): the fields in the same order either way.
  return namespace !== undefined
    ? { type: 'function_call_result', name, namespace, callId, status: 'completed', output: { type: 'text', text } }
    : { type: 'function_call_result', name, callId, status: 'completed', output: { type: 'text', text } };
}

/**
 * What the model receives for a tool's return value: text, image and file parts (alone or in a
 * list) keep their kind and are kept as a list of input content, as the reference keeps them;
 * anything else becomes one text part.
 */
export function toolCallOutput(value: unknown): FunctionCallResultOutput {
  const single = toInputContent(value);
  if (single !== undefined) return [single];
  if (Array.isArray(value) && value.length > 0) {
    const parts = value.map(toInputContent);
    if (parts.every((part) => part !== undefined)) return parts as UserContent[];
  }
  return { type: 'text', text: toSmartString(value) };
}

/** Rejects run input that is neither a string nor a list of protocol items. */
export function validateRunInput(input: unknown): asserts input is string | AgentInputItem[] {
  if (typeof input === 'string') return;
  if (!Array.isArray(input)) {
    throw new UserError(`Run input must be a string, an array of protocol items or a RunState, got ${input === null ? 'null' : typeof input}.`);
  }
  input.forEach((item, index) => {
    const ok =
      typeof item === 'object' &&
      item !== null &&
      (typeof (item as { type?: unknown }).type === 'string' || typeof (item as { role?: unknown }).role === 'string');
    if (!ok) throw new UserError(`Run input item ${index} is not a protocol item (expected an object with a \`type\` or \`role\`).`);
  });
}
