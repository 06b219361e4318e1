import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, run } from '../src/index.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function runIdOfOneRun(): Promise<string | undefined> {
  const result = await run(new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('hi')]]) }), 'go');
  return result.state.runId;
}

describe('run ids', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are version 4 UUIDs, a new one per run', async () => {
    const ids = [await runIdOfOneRun(), await runIdOfOneRun()];
    for (const id of ids) expect(id).toMatch(V4);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('are version 4 UUIDs where the runtime has no crypto.randomUUID (a browser page outside a secure context)', async () => {
    const real = globalThis.crypto;
    const getRandom = vi.fn(<T extends ArrayBufferView | null>(array: T) => real.getRandomValues(array as never) as T);
    vi.stubGlobal('crypto', { getRandomValues: getRandom });
    const ids = [await runIdOfOneRun(), await runIdOfOneRun()];
    for (const id of ids) expect(id).toMatch(V4);
    expect(ids[0]).not.toBe(ids[1]);
    expect(getRandom).toHaveBeenCalledTimes(2);
  });
});
