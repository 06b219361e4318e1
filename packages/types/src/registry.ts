/**
 * Type registry filled in by `@baton/core` through declaration merging, so that contracts declared
 * here (run items, events, errors) expose core's `Agent` and `RunState` types to users without this
 * package depending on core. Without core, they fall back to the minimal shapes below.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface BatonTypeRegistry {}

/** What contracts need of an agent: its name (agents are referenced by name in events and JSON). */
export interface AgentRef {
  readonly name: string;
}

/** What contracts need of a run state when core is not loaded. */
export interface RunStateRef {
  readonly currentTurn: number;
  toString(): string;
}

export type RegisteredAgent = BatonTypeRegistry extends { agent: infer A } ? A : AgentRef;
export type RegisteredRunState = BatonTypeRegistry extends { runState: infer S } ? S : RunStateRef;
