/**
 * Where Baton reads the time for approval expiry and store leases: the part of Effect's `Clock`
 * it needs, so a run's fiber clock (and `TestClock` in tests) can stand in for the system's. Pass
 * `yield* Clock.Clock` (from `effect`) wherever a `clock` option is taken.
 */
export interface WallClock {
  currentTimeMillisUnsafe(): number;
}

/** The system clock. */
export const systemClock: WallClock = { currentTimeMillisUnsafe: () => Date.now() };
