import { describe, expect, it } from 'vitest';
import * as Effect from 'effect/Effect';
import * as Exit from 'effect/Exit';
import { flatMapNow } from '../src/engine/internal/flatMapNow.js';

describe('flatMapNow', () => {
  it('continues at once with a value the effect already holds', () => {
    const seen: number[] = [];
    const next = flatMapNow(Effect.succeed(1), (n) => (seen.push(n), Effect.succeed(n + 1)));
    expect(seen).toEqual([1]);
    expect(Effect.runSync(next)).toBe(2);
  });

  it('does not continue past a failure, which reaches the caller unchanged', () => {
    const error = new Error('no');
    let called = false;
    const next = flatMapNow(Effect.fail(error), () => ((called = true), Effect.void));
    const exit = Effect.runSyncExit(next);
    expect(called).toBe(false);
    expect(exit).toEqual(Exit.fail(error));
  });

  it('waits for an effect that has yet to run, and continues only when it is run', async () => {
    let ran = 0;
    let called = 0;
    const next = flatMapNow(
      Effect.sync(() => ++ran),
      (n) => (called++, Effect.succeed(n * 10)),
    );
    expect([ran, called]).toEqual([0, 0]);
    expect(await Effect.runPromise(next)).toBe(10);
    expect(await Effect.runPromise(next)).toBe(20);
    expect([ran, called]).toEqual([2, 2]);
  });
});
