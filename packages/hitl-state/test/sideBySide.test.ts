import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '@baton/core';
import { weatherScenario } from './support/scenarios.js';

// Packs this package (and the workspace packages it depends on), installs the pack twice in a
// project outside the workspace — once as @baton/hitl-state, once under the alias hitl-state-v1 —
// and runs the README's router against a stored state and one from a future release.
const here = dirname(fileURLToPath(import.meta.url));
const packages = join(here, '..', '..');
const repo = join(packages, '..');
const bin = (name: string) => join(repo, 'node_modules', '.bin', name);
const pnpm = existsSync(join(repo, '.tools', 'node_modules', '.bin', 'pnpm')) ? join(repo, '.tools', 'node_modules', '.bin', 'pnpm') : 'pnpm';

function readmeRouter(): string {
  const readme = readFileSync(join(here, '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Versions side by side'));
  const code = /```ts(?: [a-z-]+)?\n([\s\S]*?)```/.exec(section)?.[1]; // a `ts sketch` fence too: this test runs it with both versions installed
  if (!code) throw new Error('README: no ```ts block under "Versions side by side"');
  return code;
}

describe('two versions side by side under an npm alias', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-side-by-side-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs the packed package under its name and an alias, and routes states by schema version', async () => {
    for (const name of ['types', 'core', 'hitl-state']) {
      expect(existsSync(join(packages, name, 'dist', 'index.js')), `packages/${name} is built`).toBe(true);
      execFileSync(pnpm, ['pack', '--pack-destination', dir], { cwd: join(packages, name), stdio: 'pipe' });
    }
    const tarball = (name: string) => `file:./${readdirSync(dir).find((f) => f.startsWith(`baton-${name}-`) && f.endsWith('.tgz'))}`;
    // Stand-in for the older release: the same build, repacked under another version, so the package
    // manager installs it as a separate package (as it would `@baton/hitl-state@1`).
    execFileSync('tar', ['-xzf', tarball('hitl-state').slice('file:./'.length), '-C', dir], { cwd: dir });
    const manifestPath = join(dir, 'package', 'package.json');
    writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, 'utf8')), version: '0.0.1-previous' }));
    execFileSync('tar', ['-czf', join(dir, 'hitl-state-previous.tgz'), 'package'], { cwd: dir });
    rmSync(join(dir, 'package'), { recursive: true });

    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'side-by-side',
        private: true,
        type: 'module',
        dependencies: {
          '@baton/types': tarball('types'),
          '@baton/core': tarball('core'),
          '@baton/hitl-state': tarball('hitl-state'),
          // What `npm install hitl-state-v1@npm:@baton/hitl-state@1` does, from the packed file.
          'hitl-state-v1': 'file:./hitl-state-previous.tgz',
        },
        pnpm: { overrides: { '@baton/core': tarball('core'), '@baton/types': tarball('types') } },
      }),
    );
    // --prefer-offline, not --offline: an install from the lockfile never writes the package metadata
    // that --offline needs, so on a fresh machine (empty caches) the registry must still be reachable.
    execFileSync(pnpm, ['install', '--prefer-offline', '--ignore-workspace', '--config.confirmModulesPurge=false'], { cwd: dir, stdio: 'pipe' });
    expect(existsSync(join(dir, 'node_modules', 'hitl-state-v1', 'dist', 'index.js'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'node_modules', 'hitl-state-v1', 'package.json'), 'utf8'))).toMatchObject({ name: '@baton/hitl-state', version: '0.0.1-previous' });

    const { root } = weatherScenario({ afterResume: [] });
    // A state as the previous release wrote it (schema 1: this one has nothing schema 2 added).
    const stored = JSON.stringify({ ...JSON.parse((await run(root, 'weather?')).state.toString()), $schemaVersion: '1' });
    writeFileSync(join(dir, 'v1.json'), stored);
    writeFileSync(join(dir, 'future.json'), JSON.stringify({ ...JSON.parse(stored), $schemaVersion: '4' }));
    writeFileSync(join(dir, 'router.ts'), readmeRouter());
    writeFileSync(
      join(dir, 'main.ts'),
      `import { readFileSync } from 'node:fs';
import * as current from '@baton/hitl-state';
import * as v1 from 'hitl-state-v1';
import { releaseFor } from './router.ts';
const stored = readFileSync('v1.json', 'utf8');
const route = releaseFor(stored);
if (route.name === 'none') throw new Error(route.reason);
const summary = route.hitl.inspectRunState(stored);
console.log('route', route.name, route.hitl === v1, summary.supported && summary.pendingApprovals.map((a) => a.callId).join(','));
const future = releaseFor(readFileSync('future.json', 'utf8'));
console.log('future', future.name, 'reason' in future ? future.reason : '');
console.log('distinct', v1 !== current && v1.inspectRunState !== current.inspectRunState);
`,
    );
    const out = execFileSync(bin('tsx'), ['main.ts'], { cwd: dir, encoding: 'utf8' }).split('\n');
    expect(out).toContain('route v1 true call_sf');
    expect(out.find((l) => l.startsWith('future '))).toMatch(/^future none Run state schema version 4 is newer than this version of Baton supports \(schema version 3\)/);
    expect(out).toContain('distinct true');
  }, 120_000);
});
