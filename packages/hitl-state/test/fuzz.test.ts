import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RunState, UserError, run } from '@baton/core';
import { RunStateError } from '@baton/types';
import { approvalRecords, checkResumable, inspectRunState } from '../src/index.js';
import { nestedScenario, weatherScenario } from './support/scenarios.js';

// Valid states to mutate: the weather flow (handoff, reasoning, approval) and a nested agent-tool run.
const weather = weatherScenario({ afterResume: [] });
const weatherText = (await run(weather.root, 'weather?')).state.toString();
const nested = nestedScenario(2);
const nestedText = (await run(nested.root, 'pay')).state.toString();
const cases = [
  { text: weatherText, root: weatherScenario({ resumeOnly: true }).root },
  { text: nestedText, root: nestedScenario(2).root },
];

/** Every JSON path to an object member or array element. */
function pathsOf(value: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const path = [...prefix, key];
    out.push(path);
    pathsOf(child, path, out);
  }
  return out;
}

function mutate(text: string, pathIndex: number, replacement: unknown, remove: boolean): string {
  const json = JSON.parse(text);
  const paths = pathsOf(json);
  const path = paths[pathIndex % paths.length]!;
  let parent = json;
  for (const key of path.slice(0, -1)) parent = parent[key];
  const last = path.at(-1)!;
  if (remove) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    parent[last] = replacement;
  }
  return JSON.stringify(json);
}

/** The reader may accept the input or refuse it, but only with our errors. */
async function readsOrRefuses(root: (typeof cases)[number]['root'], text: string): Promise<void> {
  const attempts: Array<() => unknown> = [
    () => RunState.fromString(root, text),
    () => inspectRunState(text),
    () => approvalRecords(text),
    () => checkResumable(root, text),
  ];
  for (const attempt of attempts) {
    try {
      await attempt();
    } catch (error) {
      if (!(error instanceof RunStateError) && !(error instanceof UserError)) {
        throw new Error(`not our error type for ${text.slice(0, 200)}: ${String(error)}`, { cause: error });
      }
    }
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe('the run-state reader under fuzzing (fast-check)', () => {
  it('arbitrary strings never crash it with anything but RunStateError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        await readsOrRefuses(cases[0]!.root, text);
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary JSON values, with and without a schema version', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, '1', '2', 1, null), async (value, version) => {
        const json = typeof value === 'object' && value !== null && !Array.isArray(value) && version !== undefined ? { ...value, $schemaVersion: version } : value;
        await readsOrRefuses(cases[0]!.root, JSON.stringify(json));
      }),
      { numRuns: 300 },
    );
  });

  it('valid states with one field replaced or removed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cases),
        fc.nat(),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('__proto__', 'constructor', '', -1, 1e308)),
        fc.boolean(),
        async (sample, pathIndex, replacement, remove) => {
          await readsOrRefuses(sample.root, mutate(sample.text, pathIndex, replacement, remove));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('valid states cut at any point, or with a prototype key spliced in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), fc.nat(), fc.constantFrom('"__proto__":{"polluted":1},', '"constructor":{"prototype":{"polluted":1}},'), async (sample, at, key) => {
        const cut = at % sample.text.length;
        await readsOrRefuses(sample.root, sample.text.slice(0, cut));
        // Insert after an opening brace, so it becomes a key of some object.
        const brace = sample.text.indexOf('{', cut);
        if (brace >= 0) await readsOrRefuses(sample.root, `${sample.text.slice(0, brace + 1)}${key}${sample.text.slice(brace + 1)}`);
      }),
      { numRuns: 300 },
    );
  });
});
