import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatchdog } from '../src/engine/internal/loop/idleWatchdog.js';

// Each test its own limits: a ticker is kept per limit, and one made under another test's fake clock never ticks again.
let limitsMade = 0;
const freshLimit = () => 400 + 4 * limitsMade++;

const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('IdleWatchdog: idle streams are found by one shared timer per limit', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires after the limit of one unbroken wait (between the limit and 1.25 × it), once', () => {
    const limit = freshLimit();
    const fired: number[] = [];
    const start = Date.now();
    const watchdog = new IdleWatchdog(limit, () => fired.push(Date.now() - start));
    watchdog.waiting();
    vi.advanceTimersByTime(limit - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(limit / 4 + 1);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeGreaterThanOrEqual(limit);
    expect(fired[0]).toBeLessThanOrEqual(1.25 * limit);
    vi.advanceTimersByTime(2_000);
    expect(fired).toHaveLength(1);
  });

  it('counts each wait on its own, and not the time between an event and the next wait', () => {
    const limit = freshLimit();
    let fired = 0;
    const watchdog = new IdleWatchdog(limit, () => (fired += 1));
    for (let i = 0; i < 20; i++) {
      watchdog.waiting();
      vi.advanceTimersByTime(250);
      watchdog.busy();
      vi.advanceTimersByTime(1_000); // the reader is slow: backpressure, not a stalled server
    }
    expect(fired).toBe(0);
    watchdog.stop();
  });

  it('watchdogs of one limit share a timer, each still judged on its own waits', () => {
    const limit = freshLimit();
    const otherLimitMs = 2 * limit;
    const before = vi.getTimerCount();
    const fired: string[] = [];
    const quiet = new IdleWatchdog(limit, () => fired.push('quiet'));
    vi.advanceTimersByTime(50); // the second starts out of phase with the first
    const lively = new IdleWatchdog(limit, () => fired.push('lively'));
    const otherLimit = new IdleWatchdog(otherLimitMs, () => fired.push('other'));
    expect(vi.getTimerCount() - before).toBe(2);
    quiet.waiting();
    otherLimit.waiting();
    for (let i = 0; i < 10; i++) {
      lively.waiting();
      vi.advanceTimersByTime(60);
      lively.busy();
    }
    expect(fired).toEqual(['quiet']);
    vi.advanceTimersByTime(otherLimitMs);
    expect(fired).toEqual(['quiet', 'other']);
    lively.stop();
  });

  it('a stopped watchdog never fires, and the timer is cleared at the first tick with no watchdog left', () => {
    const limit = freshLimit();
    const before = vi.getTimerCount();
    let fired = 0;
    const first = new IdleWatchdog(limit, () => (fired += 1));
    const second = new IdleWatchdog(limit, () => (fired += 1));
    first.waiting();
    second.waiting();
    first.stop();
    second.stop();
    expect(vi.getTimerCount() - before).toBe(1);
    vi.advanceTimersByTime(limit / 4);
    expect(vi.getTimerCount() - before).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(fired).toBe(0);
    // A later watchdog of the limit gets a timer again.
    const third = new IdleWatchdog(limit, () => (fired += 1));
    third.waiting();
    vi.advanceTimersByTime(1.5 * limit);
    expect(fired).toBe(1);
  });

  it("a watchdog whose onIdle throws does not keep the others from firing; the error surfaces from the tick", () => {
    const limit = freshLimit();
    const fired: string[] = [];
    const failing = new IdleWatchdog(limit, () => {
      fired.push('failing');
      throw new Error('onIdle failed');
    });
    const other = new IdleWatchdog(limit, () => fired.push('other'));
    failing.waiting();
    other.waiting();
    expect(() => vi.advanceTimersByTime(1.5 * limit)).toThrow('onIdle failed');
    vi.advanceTimersByTime(1.5 * limit);
    expect(fired).toEqual(['failing', 'other']);
  });
});

describe('IdleWatchdog: the shared timer holds the process only while a watchdog waits on it', () => {
  it('is referenced while a watchdog runs and unreferenced once none does', () => {
    const before = timeouts();
    const watchdog = new IdleWatchdog(60_000, () => undefined);
    expect(timeouts()).toBe(before + 1);
    const sibling = new IdleWatchdog(60_000, () => undefined);
    expect(timeouts()).toBe(before + 1);
    watchdog.stop();
    expect(timeouts()).toBe(before + 1);
    sibling.stop();
    expect(timeouts()).toBe(before);
    const again = new IdleWatchdog(60_000, () => undefined);
    expect(timeouts()).toBe(before + 1);
    again.stop();
    expect(timeouts()).toBe(before);
  });
});
