import { describe, expect, it } from 'vitest';
import { measureResponsesTransport } from '../src/scenarios/responsesTransport.js';

// The transport scenario does the work it claims: runs over both transports, one kept socket for
// every WebSocket run. Its timings are reported by the bench, never asserted here.
describe('the Responses transport scenario', () => {
  it('runs the same agent over HTTP and over one kept WebSocket', async () => {
    const result = await measureResponsesTransport({ rounds: 2, warmupRounds: 0, runsPerRound: 2 });
    expect(result.turns).toBe(8);
    expect(result.websocketUpgrades).toBe(1);
    expect(Number.isFinite(result.ratio)).toBe(true);
  });
});
