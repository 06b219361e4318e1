// The README: bad input includes "nesting deeper than `MAX_RUN_STATE_DEPTH` (200) levels
// (`too_deep`)", counting objects and arrays alike with the state itself at level 0. So a state
// whose deepest container sits at level 200 is read, one at level 201 is refused — whether the
// nesting is made of arrays or of objects. The expected values follow from that rule, counted by
// hand below, not from what the reader happens to do.
import { MAX_RUN_STATE_DEPTH } from '@baton/types/internal';
import { describe, expect, it } from 'vitest';
import { RunState, run } from '@baton/core';
import { RunStateError } from '@baton/types';
import { checkResumable, inspectRunState } from '../src/index.js';
import { weatherScenario } from './support/scenarios.js';

const paused = await run(weatherScenario({ afterResume: [] }).root, 'weather in Oakland and San Francisco?');
const valid = paused.state.toString();
const root = weatherScenario({ resumeOnly: true }).root;

// Levels: the state is 0, `context` 1, `context.context` 2, so the first container placed in
// `context.context.data` is at level 3 and `n` nested containers reach level n + 2.
const LEVELS_ABOVE_DATA = 2;

const arrays = (n: number) => `${'['.repeat(n)}"bottom"${']'.repeat(n)}`;
const objects = (n: number) => `${'{"k":'.repeat(n)}"bottom"${'}'.repeat(n)}`;

/** A valid paused state whose application context holds `{ data: <deep> }`, written as text (JSON.stringify overflows on the deepest ones). */
function withDeepData(deep: string): string {
  const state = JSON.parse(valid);
  state.context.context = { data: 'DEEP' };
  return JSON.stringify(state).replace('"DEEP"', deep);
}

async function readError(text: string): Promise<unknown> {
  return RunState.fromString(root, text).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe.each([
  ['arrays', arrays],
  ['objects', objects],
])('nesting made of %s', (_label, make) => {
  it('is 200 for MAX_RUN_STATE_DEPTH', () => {
    expect(MAX_RUN_STATE_DEPTH).toBe(200);
  });

  it('a state whose deepest container is exactly at level 200 is read and written back unchanged', async () => {
    const text = withDeepData(make(200 - LEVELS_ABOVE_DATA));
    const state = await RunState.fromString(root, text);
    expect(JSON.stringify(JSON.parse(state.toString()).context.context)).toBe(`{"data":${make(200 - LEVELS_ABOVE_DATA)}}`);
    expect(() => inspectRunState(text)).not.toThrow();
  });

  it('one level more (201) is too_deep, from every reader, with the path to it', async () => {
    const text = withDeepData(make(201 - LEVELS_ABOVE_DATA));
    const error = await readError(text);
    expect(error).toBeInstanceOf(RunStateError);
    expect(error).toMatchObject({ reason: 'too_deep' });
    expect((error as RunStateError).path?.slice(0, 3)).toEqual(['context', 'context', 'data']);
    expect((error as RunStateError).message).toContain('deeper than 200 levels');
    expect(() => inspectRunState(text)).toThrow(expect.objectContaining({ reason: 'too_deep' }));
    await expect(checkResumable(root, text)).rejects.toMatchObject({ reason: 'too_deep' });
  });

  it('50,000 levels is too_deep, not accepted and not a RangeError', async () => {
    const error = await readError(withDeepData(make(50_000)));
    expect(error).toBeInstanceOf(RunStateError);
    expect(error).toMatchObject({ reason: 'too_deep' });
  });
});
