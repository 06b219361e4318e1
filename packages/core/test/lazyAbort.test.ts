import { describe, expect, it } from 'vitest';
import { LazyAbort, lazySignalOf, SIGNAL_SOURCE, withLazySignal } from '../src/engine/internal/lazyAbort.js';

describe('LazyAbort', () => {
  it('makes no signal until one is read, and a signal read after the abort is already aborted with its reason', () => {
    const abort = new LazyAbort();
    expect(abort.aborted).toBe(false);
    const reason = new Error('stop');
    abort.abort(reason);
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe(reason);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe(reason);
  });

  it('a follower aborts with the reason of the abort it follows, whether its signal was read before or after', () => {
    const source = new LazyAbort();
    const readEarly = new LazyAbort();
    const readLate = new LazyAbort();
    source.follow(readEarly);
    source.follow(readLate);
    const early = readEarly.signal;
    const reason = new Error('cancelled');
    source.abort(reason);
    expect(early.aborted).toBe(true);
    expect(early.reason).toBe(reason);
    expect(readLate.signal.reason).toBe(reason);
  });

  it('a follower of an abort that already fired aborts at once; aborting the follower leaves the source alone', () => {
    const source = new LazyAbort();
    source.abort('gone');
    const follower = new LazyAbort();
    source.follow(follower);
    expect(follower.aborted).toBe(true);
    expect(follower.reason).toBe('gone');

    const other = new LazyAbort();
    const own = new LazyAbort();
    other.follow(own);
    own.abort('own reason');
    expect(other.aborted).toBe(false);
  });

  it('withLazySignal copies the object and reads the signal only when asked', () => {
    const abort = new LazyAbort();
    const target = { input: 'hi' };
    const withSignal = withLazySignal(target, abort);
    expect(withSignal).not.toBe(target);
    expect(withSignal.input).toBe('hi');
    expect('signal' in target).toBe(false);
    abort.abort('why');
    expect(withSignal.signal.aborted).toBe(true);
    expect({ ...withSignal }.signal.reason).toBe('why');
  });

  it('each copy reads its own abort, also over a signal the target had, and keeps it as an own enumerable property', () => {
    const first = new LazyAbort();
    const second = new LazyAbort();
    const stale = new AbortController().signal;
    const a = withLazySignal({ input: 'a', signal: stale }, first);
    const b = withLazySignal({ input: 'b' }, second);
    second.abort('second only');
    expect(a.signal).not.toBe(stale);
    expect(a.signal.aborted).toBe(false);
    expect(b.signal.reason).toBe('second only');
    expect(Object.keys(a)).toEqual(['input', 'signal']);
    expect(Object.getOwnPropertyDescriptor(b, 'signal')?.enumerable).toBe(true);
  });

  it('lazySignalOf gives the fields a signal made only when read, from the abort they hold', () => {
    const abort = new LazyAbort();
    const details = lazySignalOf({ toolCall: 'call', [SIGNAL_SOURCE]: abort });
    expect(Object.keys(details)).toEqual(['toolCall', 'signal']);
    abort.abort('stop');
    expect(details.signal.aborted).toBe(true);
    expect(details.signal.reason).toBe('stop');
    expect(details.signal).toBe(details.signal);
  });
});
