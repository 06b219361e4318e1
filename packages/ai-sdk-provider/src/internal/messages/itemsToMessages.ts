import { UserError, type ModelSettings } from '@baton/types';
import { isObject, qualifiedName, type ModelTarget } from './modelTarget.js';
import { providerOptionsFor } from './providerOptions.js';
import { bundlesReasoning } from './reasonerReplay.js';
import { toolResultOutput } from './toolResult.js';
import { TOOL_SEARCH_TOOL_NAME, clientSearchOutput, itemId, searchCallId, searchExecution, serverSearchOutput } from './toolSearchItems.js';
import { userParts } from './userParts.js';

type Item = Record<string, unknown>;
type Part = Record<string, unknown>;
export interface PromptMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | Part[];
  providerOptions?: Record<string, unknown>;
}

const UNSUPPORTED: Record<string, string> = {
  hosted_tool_call: 'Hosted tool calls are not supported in the history sent to an AI SDK model',
  computer_call: 'Computer calls are not supported in the history sent to an AI SDK model',
  computer_call_result: 'Computer call results are not supported in the history sent to an AI SDK model',
  shell_call: 'Shell calls are not supported in the history sent to an AI SDK model',
  shell_call_output: 'Shell call results are not supported in the history sent to an AI SDK model',
  apply_patch_call: 'Apply patch calls are not supported in the history sent to an AI SDK model',
  apply_patch_call_output: 'Apply patch call results are not supported in the history sent to an AI SDK model',
};

/**
 * Protocol items as AI SDK prompt messages, message by message as the reference's adapter sends
 * them: system and user messages as they are; an assistant message's text and refusals as `text`
 * parts; consecutive function calls as one assistant message of `tool-call` parts (arguments parsed,
 * `{}` when they are not JSON); each function result as its own `tool` message; reasoning as an
 * assistant message of its own, or, for models that need it beside the next turn (DeepSeek with
 * thinking), bundled into that turn once; `unknown` items as the message their `providerData`
 * holds. A client tool search is a `tool_search` tool call answered by a `tool` message (a later
 * output for the same call replaces the earlier one); a provider-executed one is a
 * `providerExecuted` tool call and its result inside the assistant turn, ahead of the turn's client
 * calls. Outputs without a call id answer the oldest open search of their own kind. Every part carries its item's `providerData` (when stamped by this model) as
 * `providerOptions`. Items an AI SDK model cannot take (hosted, computer, shell and apply-patch
 * calls, programmatic tool calling history, unknown types) are a `UserError`.
 */
export function itemsToPromptMessages(model: ModelTarget, items: readonly unknown[], settings?: ModelSettings): PromptMessage[] {
  const messages: PromptMessage[] = [];
  const toolNames = new Map<string, string>();
  const bundle = bundlesReasoning(model, settings);
  let turn: (PromptMessage & { content: Part[]; providerOptions: Record<string, unknown> }) | undefined;
  let pending: { text: string; providerOptions: Record<string, unknown> } | undefined;
  const options = (data: unknown) => providerOptionsFor(data, model);
  const reasoningPart = (reasoning: NonNullable<typeof pending>): Part => ({ type: 'reasoning', text: reasoning.text, providerOptions: reasoning.providerOptions });

  /** Pending bundled reasoning opens the current turn, or becomes its own assistant message. */
  const flushReasoning = () => {
    if (pending === undefined) return;
    const reasoning = pending;
    pending = undefined;
    if (turn !== undefined) {
      turn.content.unshift(reasoningPart(reasoning));
      turn.providerOptions = { ...reasoning.providerOptions, ...turn.providerOptions };
    } else {
      messages.push({ role: 'assistant', content: [reasoningPart(reasoning)], providerOptions: reasoning.providerOptions });
    }
  };
  /** Signed reasoning goes once, before the first of parallel tool calls. */
  const attachReasoning = () => {
    if (pending === undefined || turn === undefined) return;
    turn.content.push(reasoningPart(pending));
    turn.providerOptions = { ...pending.providerOptions, ...turn.providerOptions };
    pending = undefined;
  };
  const flushTurn = () => {
    if (turn !== undefined) messages.push(turn);
    turn = undefined;
  };
  const openSearches = { client: [] as string[], server: [] as string[] };
  const serverSearches = new Set<string>();
  const searchResults = new Map<string, number>();
  const close = (queue: string[], id: string) => {
    const at = queue.indexOf(id);
    if (at !== -1) queue.splice(at, 1);
  };
  /** Provider-executed parts go ahead of the turn's client tool calls (the provider ran them first). */
  const addServerPart = (item: Item, part: Part) => {
    turn ??= { role: 'assistant', content: [], providerOptions: options(item.providerData) };
    const firstClientCall = turn.content.findIndex((existing) => existing.type === 'tool-call' && existing.providerExecuted !== true);
    turn.content.splice(firstClientCall === -1 ? turn.content.length : firstClientCall, 0, part);
  };

  for (const raw of items) {
    if (!isObject(raw)) throw new UserError(`An input item for an AI SDK model must be an object; received ${JSON.stringify(raw)}.`);
    const item = raw as Item;
    if (isObject(item.caller) && item.caller.type === 'program') {
      throw new UserError('The AI SDK adapter does not support Programmatic Tool Calling history. Use a Responses API model directly.');
    }
    const type = item.type;
    if (type === undefined || type === 'message') {
      const role = item.role;
      if (role === 'system' || role === 'user') {
        flushReasoning();
        flushTurn();
        messages.push(
          role === 'system'
            ? { role, content: item.content as string, providerOptions: options(item.providerData) }
            : { role, content: userParts(item.content, model), providerOptions: options(item.providerData) },
        );
      } else if (role === 'assistant') {
        flushTurn();
        const content: Part[] = (Array.isArray(item.content) ? (item.content as Part[]) : []).flatMap((part) =>
          part.type === 'output_text' || part.type === 'refusal' ? [{ type: 'text', text: part.type === 'output_text' ? part.text : part.refusal, providerOptions: options(part.providerData) }] : [],
        );
        let providerOptions = options(item.providerData);
        if (pending !== undefined) {
          content.unshift(reasoningPart(pending));
          providerOptions = { ...pending.providerOptions, ...providerOptions };
          pending = undefined;
        }
        messages.push({ role, content, providerOptions });
      } else {
        throw new UserError(`Unknown message role for an AI SDK model: ${JSON.stringify(role)}.`);
      }
    } else if (type === 'function_call') {
      turn ??= { role: 'assistant', content: [], providerOptions: options(item.providerData) };
      attachReasoning();
      const toolName = qualifiedName(item as { name: string; namespace?: unknown });
      toolNames.set(String(item.callId), toolName);
      turn.content.push({ type: 'tool-call', toolCallId: item.callId, toolName, input: parseArguments(item.arguments as string | undefined), providerOptions: options(item.providerData) });
    } else if (type === 'function_call_result') {
      flushReasoning();
      flushTurn();
      const providerOptions = options(item.providerData);
      const toolName = toolNames.get(String(item.callId)) ?? qualifiedName(item as { name: string; namespace?: unknown });
      messages.push({
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: item.callId, toolName, output: toolResultOutput(item.output, model), providerOptions }],
        providerOptions,
      });
    } else if (type === 'tool_search_call') {
      const callId = searchCallId(item) ?? itemId(item) ?? `tool_search_${messages.length}`;
      const part: Part = { type: 'tool-call', toolCallId: callId, toolName: TOOL_SEARCH_TOOL_NAME, input: item.arguments, providerOptions: options(item.providerData) };
      if (searchExecution(item) === 'server') {
        serverSearches.add(callId);
        openSearches.server.push(callId);
        addServerPart(item, { ...part, providerExecuted: true });
      } else {
        turn ??= { role: 'assistant', content: [], providerOptions: options(item.providerData) };
        attachReasoning();
        openSearches.client.push(callId);
        turn.content.push(part);
      }
    } else if (type === 'tool_search_output') {
      const named = searchCallId(item);
      const providerOptions = options(item.providerData);
      const serverCallId = searchExecution(item) === 'server' ? (named ?? openSearches.server[0]) : undefined;
      if (serverCallId !== undefined && serverSearches.has(serverCallId)) {
        close(openSearches.server, serverCallId);
        addServerPart(item, { type: 'tool-result', toolCallId: serverCallId, toolName: TOOL_SEARCH_TOOL_NAME, output: serverSearchOutput(item), providerOptions });
      } else {
        const callId = named ?? (searchExecution(item) === 'client' ? openSearches.client[0] : undefined) ?? itemId(item) ?? `tool_search_${messages.length}`;
        close(openSearches.client, callId);
        flushReasoning();
        flushTurn();
        const message: PromptMessage = {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: callId, toolName: TOOL_SEARCH_TOOL_NAME, output: clientSearchOutput(item), providerOptions }],
          providerOptions,
        };
        const earlier = searchResults.get(callId);
        if (earlier !== undefined) messages[earlier] = message;
        else searchResults.set(callId, messages.push(message) - 1);
      }
    } else if (type === 'reasoning' && Array.isArray(item.content) && item.content.length > 0 && typeof (item.content[0] as Part).text === 'string') {
      const reasoning = { text: (item.content[0] as Part).text as string, providerOptions: options(item.providerData) };
      if (bundle) {
        pending = reasoning;
      } else {
        flushTurn();
        messages.push({ role: 'assistant', content: [reasoningPart(reasoning)], providerOptions: reasoning.providerOptions });
      }
    } else if (type === 'unknown') {
      flushReasoning();
      messages.push({ ...(isObject(item.providerData) ? item.providerData : {}) } as unknown as PromptMessage);
    } else if (typeof type === 'string' && UNSUPPORTED[type] !== undefined) {
      throw new UserError(`${UNSUPPORTED[type]}; use a Responses API model for them.`);
    } else {
      throw new UserError(`Unknown item type for an AI SDK model: ${JSON.stringify(type)}.`);
    }
  }
  flushReasoning();
  flushTurn();
  return messages;
}

/**
 * Tool-call arguments as the AI SDK's `input` value: parsed JSON, or `{}` when they are empty or not
 * JSON (vendors reject a tool call whose input is not an object; the run loop has already told the
 * model what went wrong).
 */
export function parseArguments(args: string | undefined | null): unknown {
  if (!args) return {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return {};
  }
}
