/**
 * docs/guide/versions-side-by-side.md, followed through a registry: `npm run release` publishes the
 * packages to a throwaway Verdaccio, a next release whose run-state schema changed is published
 * beside them (see nextRelease.ts), and in an empty project the guide's install line puts both in
 * one app under npm aliases. Then its files run as written: pause a run on the old release, resume
 * it on the new one (the migration reads the old state), and see the old release refuse what the
 * new one wrote. Each `// comment` is what the line before it must print.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRegistry, type LocalRegistry } from './localRegistry.js';
import { publishNextRelease } from './nextRelease.js';
import { cleanEnv, exec, userRegistry } from './userShell.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const guideFile = 'docs/guide/versions-side-by-side.md';
const guide = readFileSync(join(root, guideFile), 'utf8');
const enabled = process.env.BATON_REGISTRY_TEST === '1';

/** The guide's files: its ```js [name] blocks, in order. */
const files = [...guide.matchAll(/^```js \[([\w.-]+)\]\n([\s\S]*?)^```$/gm)].map((match) => ({ name: match[1]!, code: match[2]! }));
/** Its install line (the ```sh block, `\` continuations joined). */
const installLine = /^```sh\n([\s\S]*?)^```$/m.exec(guide)![1]!.replace(/\\\n/g, ' ').trim().split(/\s+/);

/** The `// comments` of `console.log(...)` lines: what a file says it prints, in order. */
function promised(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\);\s*\/\/ (.+)$/gm)].map((match) => match[1]!.trim());
}

function manifestOf(name: string): { version: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(root, 'packages', name.replace('@baton/', ''), 'package.json'), 'utf8'));
}

/** The packages the guide installs and the `@baton/*` packages they depend on. */
function closure(names: string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const [dependency, range] of Object.entries(manifestOf(name).dependencies ?? {})) if (range.startsWith('workspace:')) visit(dependency);
  };
  names.forEach(visit);
  return [...seen];
}

let work: string;
let registry: LocalRegistry | undefined;
let project: string;
const released = manifestOf('@baton/core').version;
let next: string;

beforeAll(async () => {
  if (!enabled) return;
  work = realpathSync(mkdtempSync(join(tmpdir(), 'baton-versions-')));
  registry = await startLocalRegistry(join(work, 'registry'), userRegistry());
  const env = cleanEnv({ npm_config_userconfig: registry.npmrc });
  const installed = ['@baton/core', '@baton/hitl-state', '@baton/testing'];
  await exec(
    process.execPath,
    [join(root, 'scripts', 'release.mjs'), '--registry', registry.url, ...installed.flatMap((name) => ['--only', name]), '--no-version', '--no-build', '--no-tests'],
    root,
    env,
    480_000,
  );
  next = await publishNextRelease({ root, work, names: closure(installed), version: released, exec, env });
  project = join(work, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'support-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  // The guide's versions are the test's: the workspace's and the next minor.
  const args = installLine.slice(2).map((arg) => arg.replace('@0.1.0', `@${released}`).replace('@0.2.0', `@${next}`));
  await exec('npm', ['install', '--prefer-offline', ...args], project, env, 480_000);
  for (const { name, code } of files) writeFileSync(join(project, name), code);
});

afterAll(async () => {
  await registry?.stop();
  if (work !== undefined && process.env.BATON_KEEP_REGISTRY_DIR === undefined) rmSync(work, { recursive: true, force: true });
});

describe.runIf(enabled)(`${guideFile}, through a registry`, () => {
  it('installs the old release under aliases beside the new one', () => {
    expect(installLine.slice(0, 2)).toEqual(['npm', 'install']);
    const version = (path: string) => JSON.parse(readFileSync(join(project, 'node_modules', path, 'package.json'), 'utf8')).version;
    expect(version('@baton/core')).toBe(next);
    expect(version('core-v1')).toBe(released);
    expect(version('hitl-state-v1')).toBe(released);
    // Each release reads states with its own @baton/types.
    const typesOf = (pkg: string) => {
      const nested = join(project, 'node_modules', pkg, 'node_modules', '@baton', 'types', 'package.json');
      try {
        return JSON.parse(readFileSync(nested, 'utf8')).version;
      } catch {
        return version('@baton/types');
      }
    };
    expect(typesOf('core-v1')).toBe(released);
    expect(typesOf('@baton/core')).toBe(next);
  });

  it.each(['pause.mjs', 'resume.mjs', 'refuse.mjs'])('runs %s as the guide writes it, printing what it says', async (name) => {
    const file = files.find((entry) => entry.name === name);
    expect(file, `${guideFile} has a \`\`\`js [${name}] block`).toBeDefined();
    const { stdout } = await exec(process.execPath, [name], project, cleanEnv(), 120_000);
    expect(stdout.trim().split('\n')).toEqual(promised(file!.code));
  });

  it('the next release lists its migration and applies it to the old state', async () => {
    const code = `import { readFileSync } from 'node:fs';
import { SUPPORTED_RUN_STATE_SCHEMA_VERSIONS, migrateRunStateJson } from '@baton/hitl-state';
import * as v1 from 'hitl-state-v1';
const migrated = migrateRunStateJson(JSON.parse(readFileSync('paused.json', 'utf8')));
console.log(JSON.stringify({ next: SUPPORTED_RUN_STATE_SCHEMA_VERSIONS, old: v1.SUPPORTED_RUN_STATE_SCHEMA_VERSIONS, version: migrated.$schemaVersion, migratedFrom: migrated.migratedFrom }));`;
    writeFileSync(join(project, 'migration.mjs'), code);
    const { stdout } = await exec(process.execPath, ['migration.mjs'], project, cleanEnv(), 60_000);
    expect(JSON.parse(stdout)).toEqual({ next: ['1', '2'], old: ['1'], version: '2', migratedFrom: ['1'] });
  });
});
