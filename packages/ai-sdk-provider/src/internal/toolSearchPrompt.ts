import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import { TOOL_SEARCH_TOOL_NAME, clientSearchOutput, itemId, searchCallId, searchExecution, serverSearchOutput } from './messages/toolSearchItems.js';
import type { AssistantPart, ToolResultPart } from './promptTypes.js';

type Item = Record<string, unknown>;

/**
 * Tool search items in the prompt `AiSdkModel` sends: a provider-executed search's call and result
 * go in the assistant turn (`providerExecuted`), a client search's call does too and its answer goes
 * in the `tool` message like a function result. An output without a call id answers the oldest open
 * search of its own kind.
 */
export class ToolSearchPrompt {
  readonly #open = { client: [] as string[], server: [] as string[] };
  readonly #server = new Set<string>();

  /** The call as an assistant part. */
  call(item: Item, providerOptions: SharedV4ProviderOptions | undefined): AssistantPart {
    const callId = searchCallId(item) ?? itemId(item) ?? 'tool_search';
    const server = searchExecution(item) === 'server';
    if (server) this.#server.add(callId);
    this.#open[server ? 'server' : 'client'].push(callId);
    return {
      type: 'tool-call',
      toolCallId: callId,
      toolName: TOOL_SEARCH_TOOL_NAME,
      input: item.arguments ?? {},
      ...(server ? { providerExecuted: true } : {}),
      ...(providerOptions ? { providerOptions } : {}),
    } as AssistantPart;
  }

  /** The output: `assistant` for a provider-executed search's result, `tool` for a client search's answer. */
  output(item: Item, providerOptions: SharedV4ProviderOptions | undefined): { place: 'assistant' | 'tool'; part: ToolResultPart } {
    const named = searchCallId(item);
    const kind = searchExecution(item);
    const serverId = kind === 'server' ? (named ?? this.#open.server[0]) : undefined;
    const place = serverId !== undefined && this.#server.has(serverId) ? 'assistant' : 'tool';
    const callId = place === 'assistant' ? serverId! : (named ?? (kind === 'client' ? this.#open.client[0] : undefined) ?? itemId(item) ?? 'tool_search');
    const queue = this.#open[place === 'assistant' ? 'server' : 'client'];
    if (queue.includes(callId)) queue.splice(queue.indexOf(callId), 1);
    const output = place === 'assistant' ? serverSearchOutput(item) : clientSearchOutput(item);
    return {
      place,
      part: { type: 'tool-result', toolCallId: callId, toolName: TOOL_SEARCH_TOOL_NAME, output, ...(providerOptions ? { providerOptions } : {}) } as unknown as ToolResultPart,
    };
  }
}
