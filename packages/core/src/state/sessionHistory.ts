import { UserError, type AgentInputItem, type FunctionCallItem, type Session } from '@baton/types';
import type { RunContext } from '../definitions/runContext.js';

/** Replaces the function call with this call id by another (the first occurrence; later duplicates are dropped). */
export interface SessionHistoryReplaceFunctionCallMutation {
  type: 'replace_function_call';
  callId: string;
  replacement: FunctionCallItem;
}

export type SessionHistoryMutation = SessionHistoryReplaceFunctionCallMutation;

export interface SessionHistoryRewriteArgs {
  mutations: SessionHistoryMutation[];
}

export interface SessionHistoryAppendItemsTransaction {
  type: 'append_items';
  items: AgentInputItem[];
}

/** Replaces the end of the history, only if it still is `expectedSuffix` (an optimistic check). */
export interface SessionHistoryReplaceSuffixTransaction {
  type: 'replace_suffix';
  expectedSuffix: AgentInputItem[];
  replacement: AgentInputItem[];
}

export type SessionHistoryTransaction = SessionHistoryAppendItemsTransaction | SessionHistoryReplaceSuffixTransaction;

/** A history change applied at most once per `operationId` (a retried operation is a no-op). */
export interface SessionHistoryTransactionArgs {
  operationId: string;
  transaction: SessionHistoryTransaction;
}

export interface SessionHistoryRewriteAwareSession extends Session {
  applyHistoryMutations(args: SessionHistoryRewriteArgs): Promise<void> | void;
}

export interface SessionHistoryTransactionAwareSession extends Session {
  applyHistoryTransaction(args: SessionHistoryTransactionArgs, runContext?: RunContext<any>): Promise<void> | void;
}

/** A session whose methods take the run's context as a last argument (the runner passes it). */
export interface RunContextAwareSession<TContext = unknown> extends Session {
  readonly acceptsRunContext: true;
  getItems(limit?: number, runContext?: RunContext<TContext>): Promise<AgentInputItem[]>;
  addItems(items: AgentInputItem[], runContext?: RunContext<TContext>): Promise<void>;
  popItem(runContext?: RunContext<TContext>): Promise<AgentInputItem | undefined>;
  clearSession(runContext?: RunContext<TContext>): Promise<void>;
}

export function isSessionHistoryRewriteAwareSession(session: Session | undefined): session is SessionHistoryRewriteAwareSession {
  return typeof (session as Partial<SessionHistoryRewriteAwareSession> | undefined)?.applyHistoryMutations === 'function';
}

export function isSessionHistoryTransactionAwareSession(session: Session | undefined): session is SessionHistoryTransactionAwareSession {
  return typeof (session as Partial<SessionHistoryTransactionAwareSession> | undefined)?.applyHistoryTransaction === 'function';
}

export function isRunContextAwareSession(session: Session | undefined): session is RunContextAwareSession {
  return (session as Partial<RunContextAwareSession> | undefined)?.acceptsRunContext === true;
}

/** The history after the mutations, as copies (the given items are not changed). */
export function applySessionHistoryMutations(items: readonly AgentInputItem[], mutations: readonly SessionHistoryMutation[]): AgentInputItem[] {
  let next = structuredClone([...items]);
  for (const mutation of mutations) {
    if (mutation.type !== 'replace_function_call') {
      throw new UserError(`Unknown session history mutation type ${JSON.stringify((mutation as { type?: unknown }).type)}.`);
    }
    const replaced: AgentInputItem[] = [];
    let kept = false;
    for (const item of next) {
      if (item.type === 'function_call' && item.callId === mutation.callId) {
        if (!kept) replaced.push(structuredClone(mutation.replacement));
        kept = true;
        continue;
      }
      replaced.push(item);
    }
    next = replaced;
  }
  return next;
}
