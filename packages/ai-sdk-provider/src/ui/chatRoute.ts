import { UserError, toolCallIdOf, type RunStreamEvent } from '@baton/types';
import { AiSdkChatError } from './aiSdkChatError.js';
import { aiSdkApprovalResponses, applyAiSdkApprovalResponses, type AiSdkApprovalResponse, type AiSdkApprovalTarget } from './approvalResponses.js';
import { readChatRequest, textOf, type ChatRequest } from './internal/chatRequest.js';
import { persistenceGate, settleRun, type Persisted } from './internal/runPersistence.js';
import { uiMessageStreamResponse } from './internal/sseResponse.js';
import { createAiSdkUiMessageStream } from './uiMessageStream.js';

/** A stored run as the chat route reads it (`StoredRun` of `@baton/hitl-state`). */
export interface AiSdkChatStoredRun {
  readonly status: 'paused' | 'running' | 'completed';
  /** The serialized run state. */
  readonly state: string;
}

/**
 * Where the chat route keeps each chat's paused run, keyed by the chat id: the part of
 * `@baton/hitl-state`'s `RunStateStore` it uses, so `SqliteRunStateStore`, `PostgresRunStateStore`
 * and `MemoryRunStateStore` fit as they are. A resume claims the run (one request at a time).
 */
export interface AiSdkChatRunStore<TClaim extends { readonly state: string }> {
  load(runId: string): Promise<AiSdkChatStoredRun | undefined>;
  save(runId: string, state: string | { toString(): string }): Promise<unknown>;
  delete(runId: string): Promise<boolean>;
  claim(runId: string, options: { workerId: string; leaseMs?: number }): Promise<TClaim | undefined>;
  finish(claim: TClaim, state: string | { toString(): string }, status: 'paused' | 'completed'): Promise<unknown>;
  release(claim: TClaim): Promise<void>;
}

/** A streamed run as the chat route needs it (`StreamedRunResult` of `@baton/core`). */
export interface AiSdkChatRun {
  toStream(): ReadableStream<RunStreamEvent>;
  /** Settles when the run has ended (finished, paused, cancelled or failed). */
  readonly completed: Promise<unknown>;
  readonly cancelled: boolean;
  readonly interruptions: readonly unknown[];
  readonly state: { toString(): string };
}

/** What `run` is told about the request it answers. */
export interface AiSdkChatRunContext {
  readonly chatId: string;
  readonly request: Request;
  /** The decisions applied to the state (empty for a new message). */
  readonly decisions: readonly AiSdkApprovalResponse[];
}

export interface AiSdkChatRouteOptions<TState extends AiSdkApprovalTarget, TClaim extends { readonly state: string }> {
  /** Paused runs, keyed by the chat id (`new SqliteRunStateStore(db)`, say). */
  readonly store: AiSdkChatRunStore<TClaim>;
  /** A stored state back as a run state: `(text) => RunState.fromString(agent, text)`. */
  loadState(serialized: string): TState | Promise<TState>;
  /**
   * Starts the run: the user's new message (a string), or the paused state with the chat's
   * decisions applied: `(input, { chatId }) => run(agent, input, { stream: true, session: sessionOf(chatId) })`.
   */
  run(input: string | TState, context: AiSdkChatRunContext): AiSdkChatRun | Promise<AiSdkChatRun>;
  /** Who decides (the signed-in user, say), recorded with each decision; when is recorded too. */
  decidedBy?(request: Request, chatId: string): string | undefined | Promise<string | undefined>;
  /**
   * A browser that goes away mid-stream: `'cancel'` (default) cancels the run (a resumed run goes
   * back to the store untouched, its decisions not applied); `'continue'` lets it finish unread and
   * stores its outcome.
   */
  readonly onDisconnect?: 'cancel' | 'continue';
  /** Recorded with the claim while a request resumes a run. Default `'ai-sdk-chat-route'`. */
  readonly workerId?: string;
  /** How long a resume holds its claim. Default 15 minutes. */
  readonly leaseMs?: number;
  /** Failures that are not the client's (the store, the run's setup); the client gets `Internal server error`. Default `console.error`. */
  onError?(error: unknown, chatId: string | undefined): void;
}

/** A call waiting for a decision in a chat. */
export interface AiSdkChatPendingApproval {
  readonly toolCallId: string;
  readonly toolName: string;
}

export interface AiSdkChatRoute {
  /** Answers `useChat`'s POST: a new message starts a run; an Approve / Reject resumes the paused one. */
  POST(request: Request): Promise<Response>;
  /** The calls the chat's paused run waits on (none when it is not paused): to show Approve / Reject again after a reload. */
  pendingApprovals(chatId: string): Promise<AiSdkChatPendingApproval[]>;
}

const DEFAULT_LEASE_MS = 15 * 60_000;

/**
 * The server side of a `useChat` chat with approvals. A user message starts a run streamed back as
 * the UI message stream; when the run pauses for approval its state is saved in `store` under the
 * chat id. The Approve / Reject the UI sends back (`addToolApprovalResponse`, then
 * `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`) claims that run,
 * applies the decisions with who and when, and resumes it into the same assistant message; the
 * outcome is stored (paused again, or completed) before the stream's last chunk, so the next
 * request sees it. Refused, with the run untouched (status 409, the reason as plain text, which
 * `useChat` shows as its error): a decision for a call that is not waiting, a new message while a
 * decision is awaited, a chat whose run another request is resuming. Pull-based end to end: a slow
 * reader slows the run; a reader that goes away cancels it (or not, by `onDisconnect`).
 */
export function createAiSdkChatRoute<TState extends AiSdkApprovalTarget, TClaim extends { readonly state: string }>(
  options: AiSdkChatRouteOptions<TState, TClaim>,
): AiSdkChatRoute {
  const { store } = options;
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const workerId = options.workerId ?? 'ai-sdk-chat-route';

  function respond(result: AiSdkChatRun, persisted: Persisted, messageId: string | undefined): Response {
    const chunks = createAiSdkUiMessageStream(result, { ...(options.onDisconnect === undefined ? {} : { onDisconnect: options.onDisconnect }), ...(messageId === undefined ? {} : { messageId }) });
    return uiMessageStreamResponse(chunks.pipeThrough(persistenceGate(persisted)), {});
  }

  async function start(chat: ChatRequest, request: Request): Promise<Response> {
    const { chatId } = chat;
    if (chat.last.role !== 'user') throw new AiSdkChatError('bad_request', `The last message of chat ${JSON.stringify(chatId)} must be the user's new message, or an assistant message carrying Approve / Reject decisions.`, chatId);
    const input = textOf(chat.last);
    if (input.trim() === '') throw new AiSdkChatError('bad_request', `The new message of chat ${JSON.stringify(chatId)} has no text.`, chatId);
    const stored = await store.load(chatId);
    if (stored?.status === 'running') throw busy(chatId);
    if (stored?.status === 'paused') {
      const waiting = describe(await pendingOf(stored.state));
      throw new AiSdkChatError('awaiting_decision', `Chat ${JSON.stringify(chatId)} is waiting for a decision on ${waiting}: approve or reject it before sending a new message.`, chatId);
    }
    const result = await options.run(input, { chatId, request, decisions: [] });
    const persisted = settleRun(
      result,
      async () => {
        if (result.cancelled || result.interruptions.length === 0) return;
        // The chat's previous run (completed) makes way for the one that now waits.
        if ((await store.load(chatId))?.status === 'completed') await store.delete(chatId);
        await store.save(chatId, result.state);
      },
      async () => undefined,
      (error) => onError(error, chatId),
    );
    return respond(result, persisted, undefined);
  }

  async function resume(chat: ChatRequest, decisions: AiSdkApprovalResponse[], request: Request): Promise<Response> {
    const { chatId } = chat;
    const stored = await store.load(chatId);
    if (stored === undefined || stored.status === 'completed') {
      const calls = decisions.map((decision) => `${decision.toolName ?? 'tool'} (${decision.toolCallId})`).join(', ');
      throw new AiSdkChatError('unknown_decision', `No approval is waiting in chat ${JSON.stringify(chatId)}: the decision for ${calls} is for a call that is unknown to this chat or was decided already.`, chatId);
    }
    if (stored.status === 'running') throw busy(chatId);
    const claim = await store.claim(chatId, { workerId, leaseMs });
    if (claim === undefined) throw busy(chatId);
    let result: AiSdkChatRun;
    try {
      const state = await options.loadState(claim.state);
      const decidedBy = await options.decidedBy?.(request, chatId);
      try {
        applyAiSdkApprovalResponses(state, [chat.last], decidedBy === undefined ? {} : { decidedBy });
      } catch (error) {
        throw error instanceof UserError && !(error instanceof AiSdkChatError) ? new AiSdkChatError('unknown_decision', `Chat ${JSON.stringify(chatId)}: ${error.message}`, chatId) : error;
      }
      result = await options.run(state, { chatId, request, decisions });
    } catch (error) {
      await store.release(claim).catch((releaseError: unknown) => onError(releaseError, chatId));
      throw error;
    }
    const persisted = settleRun(
      result,
      // Cancelled: the run goes back as it was, its decisions not applied (the UI shows them again after a reload).
      async () => (result.cancelled ? store.release(claim) : store.finish(claim, result.state, result.interruptions.length > 0 ? 'paused' : 'completed')),
      async () => store.release(claim),
      (error) => onError(error, chatId),
    );
    return respond(result, persisted, chat.last.id);
  }

  async function pendingOf(serialized: string): Promise<AiSdkChatPendingApproval[]> {
    const state = await options.loadState(serialized);
    return state.getInterruptions().map((item) => ({ toolCallId: toolCallIdOf(item.rawItem), toolName: item.toolName }));
  }

  return {
    async POST(request) {
      let chatId: string | undefined;
      try {
        if (request.method !== 'POST') return plain(405, 'The chat route answers POST requests (as useChat sends them).', { allow: 'POST' });
        let body: unknown;
        try {
          body = await request.json();
        } catch {
          throw new AiSdkChatError('bad_request', 'The request body is not JSON; useChat sends { id, messages }.');
        }
        const chat = readChatRequest(body);
        chatId = chat.chatId;
        const decisions = chat.last.role === 'assistant' ? aiSdkApprovalResponses([chat.last]) : [];
        return decisions.length > 0 ? await resume(chat, decisions, request) : await start(chat, request);
      } catch (error) {
        if (error instanceof AiSdkChatError) return plain(error.status, error.message);
        onError(error, chatId);
        return plain(500, 'Internal server error');
      }
    },
    async pendingApprovals(chatId) {
      const stored = await store.load(chatId);
      return stored?.status === 'paused' ? pendingOf(stored.state) : [];
    },
  };
}

function busy(chatId: string): AiSdkChatError {
  return new AiSdkChatError('busy', `Chat ${JSON.stringify(chatId)} is being resumed by another request; wait for its answer.`, chatId);
}

function describe(pending: readonly AiSdkChatPendingApproval[]): string {
  return pending.length === 0 ? 'a tool call' : pending.map((call) => `${call.toolName} (${call.toolCallId})`).join(', ');
}

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers } });
}
