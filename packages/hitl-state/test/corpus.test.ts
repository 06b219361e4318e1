import { CURRENT_RUN_STATE_SCHEMA_VERSION, SUPPORTED_RUN_STATE_SCHEMA_VERSIONS } from '@baton/types/internal';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RunState } from '@baton/core';
import { checkResumable, inspectRunState } from '../src/index.js';
import { sha256, type CorpusManifest } from './fixtures/generate.js';
import { FIXTURE_SCENARIOS } from './fixtures/scenarios.js';

const corpus = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'run-state');
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as CorpusManifest;
const fixtures = Object.entries(manifest.versions).flatMap(([version, entry]) => entry.fixtures.map((fixture) => ({ version, ...fixture })));
const scenarioOf = (name: string) => FIXTURE_SCENARIOS.find((s) => s.name === name)!;

describe('the run-state fixture corpus', () => {
  it('has fixtures for exactly the schema versions this package reads, the current one included', () => {
    expect(Object.keys(manifest.versions).sort()).toEqual([...SUPPORTED_RUN_STATE_SCHEMA_VERSIONS].sort());
    expect(manifest.versions[CURRENT_RUN_STATE_SCHEMA_VERSION]!.fixtures.map((f) => f.scenario).sort()).toEqual(FIXTURE_SCENARIOS.map((s) => s.name).sort());
  });

  it('lists every fixture file, and no file has changed since it was written', () => {
    const onDisk = readdirSync(corpus, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(join(corpus, d.name)).map((file) => `${d.name}/${file}`));
    expect(onDisk.sort()).toEqual(fixtures.map((f) => f.file).sort());
    for (const fixture of fixtures) expect(sha256(join(corpus, fixture.file)), fixture.file).toBe(fixture.sha256);
  });

  describe.each(fixtures)('$file', (fixture) => {
    const text = readFileSync(join(corpus, fixture.file), 'utf8');
    const scenario = scenarioOf(fixture.scenario);

    it('carries its schema version, and is inspected without an agent graph', () => {
      expect(JSON.parse(text).$schemaVersion).toBe(fixture.version);
      const summary = inspectRunState(text);
      expect(summary.supported).toBe(true);
      expect(summary.schemaVersion).toBe(fixture.version);
    });

    it('is resumable against the rebuilt graph, and resumes to the expected outcome', async () => {
      const outcome = await scenario.resume(text);
      expect(outcome).toEqual(scenario.expected);
    });

    it('rewrites idempotently (read → write → read → write gives the same string)', async () => {
      const root = scenario.root();
      const report = await checkResumable(root, text);
      expect(report.issues).toEqual([]);
      const first = (await RunState.fromString(root, text)).toString();
      const second = (await RunState.fromString(root, first)).toString();
      expect(second).toBe(first);
      expect(JSON.parse(first).$schemaVersion).toBe(CURRENT_RUN_STATE_SCHEMA_VERSION);
      // A fixture of the current version rewrites to exactly itself.
      if (fixture.version === CURRENT_RUN_STATE_SCHEMA_VERSION) expect(first).toBe(JSON.stringify(JSON.parse(text)));
    });
  });
});

