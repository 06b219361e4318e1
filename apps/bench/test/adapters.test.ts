import { describe, expect, it } from 'vitest';
import type { BenchAdapter } from '../src/sdks/adapter.js';
import { adapter as baton } from '../src/sdks/baton.js';
import { adapter as reference } from '../src/sdks/reference.js';

// Keeps the benchmark honest as the SDKs change: every scenario does the work it claims to measure
// (each adapter function also checks its own outcome and throws when the run did something else).
// Nothing here is timed.
describe.each<[string, BenchAdapter]>([
  ['baton', baton],
  ['reference', reference],
])('%s adapter', (_name, adapter) => {
  it('runs the tool loop to the final message, plain and streamed', async () => {
    await expect(adapter.toolLoop(3, false)()).resolves.toBeUndefined();
    await expect(adapter.toolLoop(3, true)()).resolves.toBeUndefined();
  });

  it('delivers every text delta through the run event stream', async () => {
    await expect(adapter.textStream(250)()).resolves.toBe(250);
  });

  it('pauses on the tool that needs approval', async () => {
    const result = (await adapter.pausedRun()()) as { interruptions: unknown[]; finalOutput: unknown };
    expect(result.interruptions).toHaveLength(1);
    expect(result.finalOutput).toBeUndefined();
  });
});
