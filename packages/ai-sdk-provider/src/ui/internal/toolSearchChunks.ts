import { TOOL_SEARCH_TOOL_NAME, itemId, searchCallId, searchExecution } from '../../internal/messages/toolSearchItems.js';

type Raw = Record<string, unknown>;

/**
 * Tool search items as UI tool parts: a search call is a `tool_search` tool call (its call id, else
 * its item id), an output answers the call it names, else the oldest open search of its own kind
 * (client or provider-executed), else stands alone under its item id. A later output for the same
 * call updates the part.
 */
export class ToolSearchChunks {
  readonly #open = { client: [] as string[], server: [] as string[] };

  /** The call's tool input. */
  call(raw: Raw): { toolCallId: string; toolName: string; input: unknown } {
    const toolCallId = searchCallId(raw) ?? itemId(raw) ?? `${TOOL_SEARCH_TOOL_NAME}-${globalThis.crypto.randomUUID()}`;
    this.#open[searchExecution(raw)].push(toolCallId);
    return { toolCallId, toolName: TOOL_SEARCH_TOOL_NAME, input: raw.arguments ?? {} };
  }

  /** The output's tool call id and the tools it loaded. */
  output(raw: Raw): { toolCallId: string; output: unknown[] } {
    const queue = this.#open[searchExecution(raw)];
    const toolCallId = searchCallId(raw) ?? queue[0] ?? itemId(raw) ?? `${TOOL_SEARCH_TOOL_NAME}-${globalThis.crypto.randomUUID()}`;
    if (queue.includes(toolCallId)) queue.splice(queue.indexOf(toolCallId), 1);
    return { toolCallId, output: Array.isArray(raw.tools) ? raw.tools : [] };
  }
}
