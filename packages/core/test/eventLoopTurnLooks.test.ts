import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventLoopTurnLooks, type TurnLooker } from '../src/engine/internal/loop/eventLoopTurnLooks.js';

const afterTurn = () => new Promise((resolve) => setImmediate(resolve));

function looker(name: string, seen: string[], onLook?: () => void): TurnLooker {
  return {
    lookAfterTurn() {
      seen.push(name);
      onLook?.();
    },
  };
}

describe('EventLoopTurnLooks: looks after the current turn of the event loop, one timer for all', () => {
  afterEach(() => vi.restoreAllMocks());

  it('looks at each looker once after the turn, in the order asked, with one immediate for all', async () => {
    const immediates = vi.spyOn(globalThis, 'setImmediate');
    const seen: string[] = [];
    const lookers = ['a', 'b', 'c'].map((name) => looker(name, seen));
    for (const l of lookers) EventLoopTurnLooks.request(l);
    EventLoopTurnLooks.request(lookers[0]!); // asked twice: looked at once
    expect(seen).toEqual([]);
    expect(immediates).toHaveBeenCalledTimes(1);
    await afterTurn();
    expect(seen).toEqual(['a', 'b', 'c']);
    await afterTurn();
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('a cancelled looker is not looked at, and is not held', async () => {
    const seen: string[] = [];
    const kept = looker('kept', seen);
    const cancelled = looker('cancelled', seen);
    EventLoopTurnLooks.request(kept);
    EventLoopTurnLooks.request(cancelled);
    EventLoopTurnLooks.cancel(cancelled);
    await afterTurn();
    expect(seen).toEqual(['kept']);
  });

  it('a looker that asks again during its look is looked at after the next turn', async () => {
    const seen: string[] = [];
    let again = true;
    const repeating: TurnLooker = looker('repeating', seen, () => {
      if (again) EventLoopTurnLooks.request(repeating);
      again = false;
    });
    EventLoopTurnLooks.request(repeating);
    await afterTurn();
    expect(seen).toEqual(['repeating']);
    await afterTurn();
    expect(seen).toEqual(['repeating', 'repeating']);
  });

  it('one looker’s failure does not cost the others their look; it surfaces afterwards', async () => {
    const seen: string[] = [];
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onUncaught);
    try {
      EventLoopTurnLooks.request(looker('first', seen, () => {
        throw new Error('look failed');
      }));
      EventLoopTurnLooks.request(looker('second', seen));
      await afterTurn();
      await afterTurn();
    } finally {
      process.off('uncaughtException', onUncaught);
      for (const listener of listeners) process.on('uncaughtException', listener);
    }
    expect(seen).toEqual(['first', 'second']);
    expect(uncaught).toEqual([new Error('look failed')]);
    // The scheduler still works after a failed look.
    EventLoopTurnLooks.request(looker('later', seen));
    await afterTurn();
    expect(seen).toEqual(['first', 'second', 'later']);
  });
});
