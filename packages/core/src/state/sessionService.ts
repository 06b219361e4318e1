import * as Context from 'effect/Context';
import type { Session } from '@baton/types';

/**
 * The session as an Effect service: `runner.runEffect(...)` keeps its conversation in the session
 * given here (a layer or `Effect.provideService`) when the run options name none. By default there
 * is none. Nested agent-tool runs never write to it.
 *
 * ```ts
 * runner.runEffect(agent, 'hi').pipe(Effect.provideService(SessionService, new MemorySession()))
 * ```
 */
export const SessionService: Context.Reference<Session | undefined> = Context.Reference<Session | undefined>('@baton/core/Session', {
  defaultValue: () => undefined,
});
