import * as Effect from 'effect/Effect';
import * as Schedule from 'effect/Schedule';

/** Through a database outage, wait and try again, backing off to every 2 s, for up to 10 minutes (as DBOS's own writes do). */
export const OUTAGE_RETRY = Schedule.min([Schedule.exponential('100 millis'), Schedule.spaced('2 seconds')]).pipe(Schedule.upTo({ duration: '10 minutes' }));

// Node's socket errors, and PostgreSQL's "connection exception" class (08) and shutdown/startup codes (57P0x).
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03']);
const CONNECTION_MESSAGES = /connection terminated|connection timeout|timeout expired|terminating connection|the database system is (starting up|shutting down|in recovery)|Client has encountered a connection error/i;

/** Whether `error` says the database could not be reached (it may come back), not that the request was wrong. */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/** `attempt`, tried again while the database cannot be reached (other errors are thrown at once), until it succeeds, the retries run out, or `signal` aborts. */
export function throughOutage<T>(attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const once = Effect.tryPromise({ try: attempt, catch: (error) => error });
  return Effect.runPromise(once.pipe(Effect.retry({ schedule: OUTAGE_RETRY, while: isConnectionError })), signal ? { signal } : undefined);
}
