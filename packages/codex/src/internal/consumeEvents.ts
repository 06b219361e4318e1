import { UserError, type FunctionCallItem } from '@baton/core';
import type { CodexUsage, ThreadEvent } from '../codexSdkTypes.js';

/** One event of the Codex turn a tool call runs, as `onStream` receives it. */
export interface CodexToolStreamEvent {
  event: ThreadEvent;
  /** The Codex thread's id, once the turn has said it (`thread.started`); null before. */
  threadId: string | null;
  /** The model's call of the tool this turn runs for (absent when the tool is invoked outside a run). */
  toolCall?: FunctionCallItem;
}

export type CodexToolStreamHandler = (event: CodexToolStreamEvent) => void | Promise<void>;

export interface TurnOutcome {
  /** The last agent message of the turn ('' when there was none). */
  response: string;
  usage: CodexUsage | null;
  threadId: string | null;
}

/**
 * Reads a Codex turn's events to its end: each goes to `onStream` first (awaited; a handler that
 * throws is ignored, it only watches), then counts toward the outcome. A failed turn or a stream
 * error ends the call with a `UserError` carrying Codex's message.
 */
export async function consumeTurn(
  events: AsyncGenerator<ThreadEvent>,
  options: { onStream?: CodexToolStreamHandler | undefined; toolCall?: FunctionCallItem | undefined },
): Promise<TurnOutcome> {
  const outcome: TurnOutcome = { response: '', usage: null, threadId: null };
  for await (const event of events) {
    if (event.type === 'thread.started') outcome.threadId = event.thread_id;
    if (options.onStream) await watch(options.onStream, { event, threadId: outcome.threadId, ...(options.toolCall ? { toolCall: options.toolCall } : {}) });
    switch (event.type) {
      case 'item.completed':
        if (event.item.type === 'agent_message' && typeof event.item.text === 'string') outcome.response = event.item.text;
        break;
      case 'turn.completed':
        outcome.usage = event.usage ?? null;
        break;
      case 'turn.failed':
        throw new UserError(`Codex turn failed${event.error?.message ? `: ${event.error.message}` : ''}`);
      case 'error':
        throw new UserError(`Codex stream error: ${event.message}`);
      default:
        break;
    }
  }
  return outcome;
}

async function watch(handler: CodexToolStreamHandler, payload: CodexToolStreamEvent): Promise<void> {
  try {
    await handler(payload);
  } catch {
    // A watcher's failure is not the task's: the turn goes on.
  }
}
