import type { AgentInputItem, Session } from '@baton/types';

/** A run's result as the cases read it. */
export interface ContractRunResult {
  readonly finalOutput?: unknown;
  readonly interruptions: readonly unknown[];
  readonly state: { approve(item: unknown): void; reject(item: unknown): void };
  /** Streamed runs: settles when the run has finished (and its turn is written). */
  readonly completed?: Promise<unknown>;
}

/**
 * What the cases run agents with, passed in by the caller (`@baton/testing` depends on the contracts
 * only): `{ Agent, run, tool }` from `@baton/core` or `@baton/agents`.
 */
export interface SessionContractRuntime {
  Agent: new (config: any) => unknown;
  run(agent: any, input: any, options?: any): Promise<ContractRunResult>;
  tool(config: any): unknown;
}

export interface SessionContractOptions {
  /** A session for conversation `sessionId` (each case uses fresh ids). */
  makeSession(sessionId: string): Session | Promise<Session>;
  /**
   * True when a second session object for the same id reads the same history (a database); false
   * for a session that keeps its items in the object (`MemorySession`): the cases that reopen a
   * conversation then run on the same object.
   */
  readonly persistent: boolean;
  /**
   * One session object that takes its conversation from each run's context (a run-context-aware
   * session), for `pick(runContext)`; omit when the kind has none (those cases are skipped, saying so).
   */
  makeContextSession?(pick: (runContext: { context: { conversation: string } } | undefined) => string): Session | Promise<Session>;
  runtime: SessionContractRuntime;
  /** Cases this kind cannot pass, by title, with the reason (shown in the skipped case's name). */
  readonly skip?: Readonly<Record<string, string>>;
}

export interface CaseContext {
  readonly options: SessionContractOptions;
  /** A fresh conversation id, unique to the case. */
  newId(): string;
  open(sessionId: string): Promise<Session>;
  /** Another session object for the conversation (the same object when the kind is not persistent). */
  reopen(session: Session): Promise<Session>;
}

export interface SessionCase {
  readonly title: string;
  /** Why the case cannot run for these options (a missing capability), or undefined. */
  readonly unsupported?: (options: SessionContractOptions) => string | undefined;
  readonly run: (context: CaseContext) => Promise<void>;
}

export type Items = AgentInputItem[];
