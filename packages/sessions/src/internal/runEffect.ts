import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';

/** Runs a synchronous program; its failure is thrown as the error it failed with. */
export function runSyncOrThrow<A, E>(program: Effect.Effect<A, E>): A {
  return valueOrThrow(Effect.runSyncExit(program));
}

/** Runs a program; its failure rejects with the error it failed with. */
export async function runOrThrow<A, E>(program: Effect.Effect<A, E>): Promise<A> {
  return valueOrThrow(await Effect.runPromiseExit(program));
}

function valueOrThrow<A, E>(exit: Exit.Exit<A, E>): A {
  if (Exit.isSuccess(exit)) return exit.value;
  throw Cause.squash(exit.cause);
}
