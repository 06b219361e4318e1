/**
 * The serialized states of a run's paused agent-tool runs, keyed `<toolName>:<callId>`. The Map is
 * made at the first write: most runs never have one, and every kept paused run would otherwise hold
 * an empty Map (about 180 bytes, measured in apps/bench's paused-run heap).
 */
export class PendingAgentToolRuns implements Iterable<[string, string]> {
  #runs: Map<string, string> | undefined;

  get(key: string): string | undefined {
    return this.#runs?.get(key);
  }

  has(key: string): boolean {
    return this.#runs?.has(key) ?? false;
  }

  set(key: string, serializedState: string): this {
    (this.#runs ??= new Map()).set(key, serializedState);
    return this;
  }

  delete(key: string): boolean {
    return this.#runs?.delete(key) ?? false;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return (this.#runs ?? NO_RUNS).entries();
  }

  /** The live Map (made if there is none yet), as the reference's `_pendingAgentToolRuns` exposes it. */
  asMap(): Map<string, string> {
    return (this.#runs ??= new Map());
  }
}

const NO_RUNS: ReadonlyMap<string, string> = new Map();
