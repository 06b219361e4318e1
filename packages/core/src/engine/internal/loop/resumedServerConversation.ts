import type { RunItem } from '@baton/types';
import type { RunRecord } from '../../../state/internal/runRecord.js';

/**
 * A run resumed from an interruption with a conversation the provider keeps (`conversationId` /
 * `previousResponseId`): the server already holds the original input and everything up to the
 * interrupted turn's model output, so the next request sends only what the run made after that
 * output (tool results, answers to MCP approval requests), as the reference does — never the user
 * input or earlier items a second time.
 */
export function primeResumedServerConversation(record: RunRecord): void {
  const conversation = record.serverConversation;
  if (!conversation || conversation.knownItems !== undefined) return;
  let known = record.generatedItems.length;
  while (known > 0 && madeAfterTheModelOutput(record.generatedItems[known - 1]!)) known--;
  conversation.knownItems = known;
}

/** Items the run adds after a model response: they reach the server only when sent. */
function madeAfterTheModelOutput(item: RunItem): boolean {
  if (item.type === 'tool_call_output_item' || item.type === 'handoff_output_item' || item.type === 'tool_approval_item') return true;
  return item.type === 'tool_call_item' && item.rawItem.type === 'hosted_tool_call' && item.rawItem.name === 'mcp_approval_response';
}
