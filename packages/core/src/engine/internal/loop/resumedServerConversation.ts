import type { RunItem } from '@baton/types';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { functionCallResult } from '../../../state/internal/items.js';
import { IGNORED_HANDOFF_ANSWER } from './ignoredHandoffAnswer.js';

/**
 * A run resumed from an interruption with a conversation the provider keeps (`conversationId` /
 * `previousResponseId`): the server already holds the original input and everything up to the
 * interrupted turn's model output, so the next request sends only what the run made after that
 * output (tool results, answers to MCP approval requests), as the reference does — never the user
 * input or earlier items a second time. An item the paused state gained that no model response
 * holds (added by hand) is sent too. Chained by response id, the request continues from the last
 * response the run received, not from the id the resumed run was given.
 */
export function primeResumedServerConversation(record: RunRecord): void {
  const conversation = record.serverConversation;
  if (!conversation || conversation.knownItems !== undefined) return;
  let known = record.generatedItems.length;
  while (known > 0 && madeAfterTheModelOutput(record.generatedItems[known - 1]!)) known--;
  conversation.knownItems = known;
  owePassedOverCalls(record, conversation);
  const fromServer = serverItems(record);
  const unsent = record.generatedItems.slice(0, known).filter((item) => !heldByServer(item, fromServer));
  conversation.unsentKnown = unsent.length > 0 ? new Set(unsent) : undefined;
  if (conversation.conversationId === undefined) {
    for (let index = record.modelResponses.length - 1; index >= 0; index--) {
      const id = record.modelResponses[index]!.responseId;
      if (typeof id === 'string' && id !== '') {
        conversation.previousResponseId = id;
        break;
      }
    }
  }
}

/** Items the run adds after a model response: they reach the server only when sent. */
function madeAfterTheModelOutput(item: RunItem): boolean {
  if (item.type === 'tool_call_output_item' || item.type === 'handoff_output_item' || item.type === 'tool_approval_item') return true;
  return item.type === 'tool_call_item' && item.rawItem.type === 'hosted_tool_call' && item.rawItem.name === 'mcp_approval_response';
}

/** The model responses' output items, by object and by content (a restored state holds copies). */
function serverItems(record: RunRecord): { readonly objects: ReadonlySet<object>; readonly contents: ReadonlySet<string> } {
  const objects = new Set<object>();
  const contents = new Set<string>();
  for (const response of record.modelResponses) {
    for (const item of response.output) {
      objects.add(item);
      contents.add(contentKey(item));
    }
  }
  return { objects, contents };
}

function contentKey(item: object): string {
  try {
    return JSON.stringify(item) ?? '';
  } catch {
    return '';
  }
}

/** Whether the server already has this item: it came in a model response, or it is the run's input. */
function heldByServer(item: RunItem, server: ReturnType<typeof serverItems>): boolean {
  // Handoff outputs and the like sit before the boundary only after an earlier turn sent them.
  if (madeAfterTheModelOutput(item) || item.type === 'input_item') return true;
  const raw = (item as { rawItem?: unknown }).rawItem;
  if (typeof raw !== 'object' || raw === null) return true;
  return server.objects.has(raw) || server.contents.has(contentKey(raw));
}

/**
 * The calls of the last response the run passed over (extra handoff calls: never in history) still
 * need an answer on the server. A live state carries those it owed; a state read back from its
 * JSON does not, so they are owed again from the response itself (once each).
 */
function owePassedOverCalls(record: RunRecord, conversation: NonNullable<RunRecord['serverConversation']>): void {
  const last = record.modelResponses.at(-1);
  if (last === undefined) return;
  const answered = new Set<string>(conversation.owedOutputs.map((output) => output.callId));
  for (const item of record.generatedItems) {
    const callId = (item as { rawItem?: { callId?: unknown } }).rawItem?.callId;
    if (typeof callId === 'string') answered.add(callId);
  }
  for (const item of last.output) {
    if (item.type !== 'function_call' || answered.has(item.callId)) continue;
    answered.add(item.callId);
    conversation.owedOutputs.push(functionCallResult(item.callId, item.name, IGNORED_HANDOFF_ANSWER));
  }
}
