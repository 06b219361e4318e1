import { randomUUID } from 'node:crypto';
import type { AgentInputItem, Session } from '@baton/types';

export interface MemorySessionOptions {
  sessionId?: string;
  initialItems?: AgentInputItem[];
}

/** Conversation memory in this process. Items are copied on the way in and out. */
export class MemorySession implements Session {
  readonly #sessionId: string;
  #items: AgentInputItem[];

  constructor(options: MemorySessionOptions = {}) {
    this.#sessionId = options.sessionId ?? randomUUID();
    this.#items = structuredClone(options.initialItems ?? []);
  }

  async getSessionId(): Promise<string> {
    return this.#sessionId;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit === undefined) return structuredClone(this.#items);
    if (limit <= 0) return [];
    return structuredClone(this.#items.slice(-limit));
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    this.#items.push(...structuredClone(items));
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    return this.#items.pop();
  }

  async clearSession(): Promise<void> {
    this.#items = [];
  }
}
