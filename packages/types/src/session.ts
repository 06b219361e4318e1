import type { AgentInputItem } from './protocol.js';

/** Conversation memory: history is read before a run and the run's items are appended after. */
export interface Session {
  getSessionId(): Promise<string>;
  /** The most recent `limit` items (all when omitted), oldest first. */
  getItems(limit?: number): Promise<AgentInputItem[]>;
  addItems(items: AgentInputItem[]): Promise<void>;
  popItem(): Promise<AgentInputItem | undefined>;
  clearSession(): Promise<void>;
  /**
   * Adjusts an item read from the session before it goes back to a model (for example a
   * server-kept conversation's assistant messages, whose ids the model must not see again).
   */
  prepareHistoryItemForModelInput?(item: AgentInputItem): AgentInputItem;
}
