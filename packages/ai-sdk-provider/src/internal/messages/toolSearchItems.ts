import { isObject } from './modelTarget.js';

/**
 * How tool search items (`tool_search_call` / `tool_search_output`) read for an AI SDK prompt. A
 * search runs either at the provider (`execution: 'server'`: the call and its result both belong to
 * the assistant turn, the result as a provider-executed `tool-result`) or in the run loop
 * (`client`, the default: a `tool-call` like a function call, answered by a `tool` message).
 */

type Item = Record<string, unknown>;

/** The AI SDK tool name of a tool search, on both sides of the prompt. */
export const TOOL_SEARCH_TOOL_NAME = 'tool_search';

/** Where the search ran: the item's own field, else what the provider recorded in `providerData`. */
export function searchExecution(item: Item): 'client' | 'server' {
  const data = isObject(item.providerData) ? item.providerData : {};
  return (item.execution ?? data.execution) === 'server' ? 'server' : 'client';
}

/** The call id an item names (its own `call_id`/`callId`, else the one in `providerData`), if any. */
export function searchCallId(item: Item): string | undefined {
  const data = isObject(item.providerData) ? item.providerData : {};
  for (const value of [item.call_id, item.callId, data.call_id, data.callId]) {
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The item's own id, when it has one. */
export function itemId(item: Item): string | undefined {
  return typeof item.id === 'string' && item.id !== '' ? item.id : undefined;
}

/** A client search's result as the run loop sends it back: its status and the tools it loaded. */
export function clientSearchOutput(item: Item): Record<string, unknown> {
  return { type: 'json', value: { status: typeof item.status === 'string' ? item.status : 'completed', tools: searchTools(item) } };
}

/**
 * A provider-executed search's result as the provider reported it: the loaded tools, or, for a
 * failed search, the provider's error entry as an error result.
 */
export function serverSearchOutput(item: Item): Record<string, unknown> {
  const tools = searchTools(item);
  if (item.status === 'failed') return { type: 'error-json', value: tools.length === 1 ? tools[0] : tools };
  return { type: 'json', value: tools };
}

function searchTools(item: Item): unknown[] {
  return Array.isArray(item.tools) ? item.tools : [];
}
