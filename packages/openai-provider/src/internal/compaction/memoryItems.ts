import type { AgentInputItem, Session } from '@baton/types';

/** The default store of `OpenAIResponsesCompactionSession`: items in memory, for demos and tests. */
export class MemoryItems implements Session {
  readonly #id = `compaction_${Math.random().toString(36).slice(2, 10)}`;
  #items: AgentInputItem[] = [];

  async getSessionId(): Promise<string> {
    return this.#id;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const items = limit === undefined ? this.#items : limit <= 0 ? [] : this.#items.slice(-limit);
    return structuredClone(items);
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
