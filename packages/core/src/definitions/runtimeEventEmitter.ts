import { getLogger } from './logger.js';

type Listener = (...args: any[]) => void;
export type EventEmitterEvents = Record<string, any[]>;

const logger = getLogger('openai-agents:core');
const reported = new WeakSet<Listener>();

/**
 * A small typed event emitter that runs anywhere (no `node:events`). Unlike Node's, a listener
 * that throws does not reach whoever emitted: lifecycle hooks observe a run, they never change its
 * course. The error is logged (once per listener) and the other listeners still run.
 */
export class RuntimeEventEmitter<EventTypes extends EventEmitterEvents = Record<string, any[]>> {
  #listeners = new Map<keyof EventTypes, Listener[]>();

  on<K extends keyof EventTypes>(type: K, listener: (...args: EventTypes[K]) => void): this {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener as Listener]);
    return this;
  }

  addListener<K extends keyof EventTypes>(type: K, listener: (...args: EventTypes[K]) => void): this {
    return this.on(type, listener);
  }

  once<K extends keyof EventTypes>(type: K, listener: (...args: EventTypes[K]) => void): this {
    const wrapper = (...args: EventTypes[K]) => {
      this.off(type, wrapper);
      listener(...args);
    };
    return this.on(type, wrapper);
  }

  off<K extends keyof EventTypes>(type: K, listener: (...args: EventTypes[K]) => void): this {
    const listeners = this.#listeners.get(type);
    if (!listeners) return this;
    const index = listeners.lastIndexOf(listener as Listener);
    if (index >= 0) this.#listeners.set(type, [...listeners.slice(0, index), ...listeners.slice(index + 1)]);
    return this;
  }

  removeListener<K extends keyof EventTypes>(type: K, listener: (...args: EventTypes[K]) => void): this {
    return this.off(type, listener);
  }

  removeAllListeners<K extends keyof EventTypes>(type?: K): this {
    if (type === undefined) this.#listeners.clear();
    else this.#listeners.delete(type);
    return this;
  }

  listenerCount<K extends keyof EventTypes>(type: K): number {
    return this.#listeners.get(type)?.length ?? 0;
  }

  listeners<K extends keyof EventTypes>(type: K): Array<(...args: EventTypes[K]) => void> {
    return [...(this.#listeners.get(type) ?? [])];
  }

  /** Calls each listener in order; returns whether there was any. */
  emit<K extends keyof EventTypes>(type: K, ...args: EventTypes[K]): boolean {
    const listeners = this.#listeners.get(type);
    if (!listeners?.length) return false;
    for (const listener of listeners) {
      try {
        listener(...args);
      } catch (error) {
        if (!reported.has(listener)) {
          reported.add(listener);
          logger.error(`A "${String(type)}" listener threw (the run goes on; further errors of this listener are not logged):`, error);
        }
      }
    }
    return true;
  }
}
