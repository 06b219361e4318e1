import { Effect } from 'effect';
import { AgentsError } from '@baton/types';
import { ExternalFailure, type RunFailure } from './failures.js';

/** Runs a user callback (sync or async); its errors reach the caller unchanged. */
export function fromUserCode<A>(thunk: () => A | Promise<A>): Effect.Effect<A, RunFailure> {
  return Effect.tryPromise({
    try: async () => thunk(),
    catch: (cause) => (cause instanceof AgentsError ? cause : new ExternalFailure({ cause })),
  });
}
