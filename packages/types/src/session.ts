import type { AgentInputItem } from './protocol.js';

/** Conversation memory: history is read before a run and the run's items are appended after. */
export interface Session {
  getSessionId(): Promise<string>;
  /** The most recent `limit` items (all when omitted), oldest first. */
  getItems(limit?: number): Promise<AgentInputItem[]>;
  addItems(items: AgentInputItem[]): Promise<void>;
  popItem(): Promise<AgentInputItem | undefined>;
  clearSession(): Promise<void>;
}
