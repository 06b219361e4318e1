/**
 * A release through a registry, as users get it: start a throwaway Verdaccio, publish every
 * non-private package to it with `npm run release` (`--no-build`: `npm test` has just built and type-checked them) (pnpm's publish: built `dist/`, `workspace:*`
 * ranges replaced by versions), then for the root README and each package README, in an empty
 * folder, follow its install lines with npm from that registry, type-check its complete code blocks
 * (`tsc --strict`, `skipLibCheck: false`) and run those that run offline, checking what their
 * `// comments` say they print.
 *
 * Assumes the packages are built (`npm test` runs the build first). Third-party packages come
 * through the registry's uplink (the npm registry the user's npm is set up with).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRegistry, type LocalRegistry } from './localRegistry.js';
import { expectedOutput, parseReadme } from './readmeBlocks.js';
import { writeInstallReport } from './installReport.js';
import { cleanEnv, exec, userRegistry } from './userShell.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const publishable = readdirSync(join(root, 'packages'))
  .filter((name) => existsSync(join(root, 'packages', name, 'package.json')))
  .map((name) => ({ dir: `packages/${name}`, manifest: JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.private !== true);
const readmes = ['README.md', ...publishable.map(({ dir }) => `${dir}/README.md`).filter((file) => existsSync(join(root, file)))];

// The root quickstart talks to OpenAI with OPENAI_API_KEY: a local server plays that model.
const fakeOpenAITurns: Record<string, () => Parameters<typeof FakeOpenAIServer.start>[0]> = {
  'README.md': () => ({ turns: [fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Lisbon' } }]), fakeText('Lisbon is sunny, 21°C.')] }),
};

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    skipLibCheck: false,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    outDir: 'out',
    rootDir: '.',
    noEmitOnError: true,
  },
  include: ['*.mts'],
};

let work: string;
let registry: LocalRegistry | undefined;

// Opt-in with BATON_REGISTRY_TEST=1 (it takes minutes: see the README of tests/registry).
const enabled = process.env.BATON_REGISTRY_TEST === '1';

beforeAll(async () => {
  if (!enabled) return;
  for (const { dir, manifest } of publishable) {
    if (!existsSync(join(root, dir, 'dist'))) throw new Error(`${manifest.name} is not built (${dir}/dist missing): run the build first.`);
  }
  work = realpathSync(mkdtempSync(join(tmpdir(), 'baton-registry-')));
  registry = await startLocalRegistry(join(work, 'registry'), userRegistry());
  await exec(
    process.execPath,
    [join(root, 'scripts', 'release.mjs'), '--registry', registry.url, '--no-version', '--no-build', '--no-tests'],
    root,
    cleanEnv({ npm_config_userconfig: registry.npmrc }),
    480_000,
  );
});

afterAll(async () => {
  await registry?.stop();
  if (work !== undefined && process.env.BATON_KEEP_REGISTRY_DIR === undefined) rmSync(work, { recursive: true, force: true });
});

describe.runIf(enabled)('npm run release to a local registry', () => {
  it.each(publishable.map(({ manifest }) => manifest as { name: string; version: string }))('publishes $name@$version', async ({ name, version }) => {
    const response = await fetch(`${registry!.url}${name.replace('/', '%2f')}`);
    expect(response.status, `${name} on the registry`).toBe(200);
    const packument = (await response.json()) as { versions: Record<string, { dependencies?: Record<string, string> }> };
    const published = packument.versions[version];
    expect(published, `${name}@${version} published`).toBeDefined();
    for (const [dependency, range] of Object.entries(published!.dependencies ?? {})) {
      expect(range, `${name} → ${dependency}`).not.toMatch(/^workspace:/);
    }
  });
});

interface Prepared {
  project: string;
  installed: Promise<void>;
  typeChecked: Promise<string>;
}

/** Each README's project: installed and type-checked a few at a time, started once the release is out. */
const prepared = new Map<string, Prepared>();
let slots = 3;
const waiting: Array<() => void> = [];
async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (slots === 0) await new Promise<void>((resolveSlot) => waiting.push(resolveSlot));
  else slots -= 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next === undefined) slots += 1;
    else next();
  }
}

function prepare(readmeFile: string): Prepared {
  const existing = prepared.get(readmeFile);
  if (existing !== undefined) return existing;
  const readme = parseReadme(readFileSync(join(root, readmeFile), 'utf8'));
  const slug = readmeFile.replace(/\/README\.md$|\.md$/, '').replace(/[/.]/g, '-');
  const project = join(work, 'projects', slug);
  const installed = limited(async () => {
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: `readme-${slug}`, version: '1.0.0', private: true }, null, 2)}\n`);
    for (const args of readme.installLines) {
      // Native modules (better-sqlite3) compile here: minutes on a busy machine.
      await exec('npm', ['install', '--prefer-offline', ...args], project, cleanEnv({ npm_config_userconfig: registry!.npmrc }), 900_000);
    }
    if (readmeFile === 'packages/agents/README.md') writeInstallReport(project, readme.installLines);
  });
  const typeChecked = installed.then(() =>
    limited(async () => {
      if (readme.blocks.length === 0) return '';
      readme.blocks.forEach((block, index) => writeFileSync(join(project, blockFile(index, block.line, 'mts')), block.code));
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
      const result = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], project, cleanEnv(), 900_000).catch((error: Error) => error);
      return result instanceof Error ? result.message : '';
    }),
  );
  // Reported by the tests that await them.
  installed.catch(() => {});
  typeChecked.catch(() => {});
  const entry = { project, installed, typeChecked };
  prepared.set(readmeFile, entry);
  return entry;
}

function blockFile(index: number, line: number, extension: string): string {
  return `block-${index + 1}-line-${line}.${extension}`;
}

describe.runIf(enabled).each(readmes)('%s, as a user follows it from the registry', (readmeFile) => {
  const readme = parseReadme(readFileSync(join(root, readmeFile), 'utf8'));
  beforeAll(() => {
    for (const file of readmes) prepare(file);
  });

  it('installs with its install lines', async () => {
    expect(readme.installLines.length, `${readmeFile} has an npm install line`).toBeGreaterThan(0);
    await prepare(readmeFile).installed;
  });

  const blocks = readme.blocks;
  if (blocks.length > 0) it('type-checks its complete code blocks with tsc --strict, skipLibCheck: false', async () => {
    expect(await prepare(readmeFile).typeChecked, `${readmeFile}: tsc`).toBe('');
  });

  const runnable = blocks.map((block, index) => ({ ...block, file: blockFile(index, block.line, 'mjs') })).filter((block) => block.run);
  if (runnable.length > 0) it.each(runnable)('runs the block at line $line as published', async ({ code, file }) => {
    const { project, typeChecked } = prepare(readmeFile);
    expect(await typeChecked, `${readmeFile} type-checks (its blocks are compiled by tsc)`).toBe('');
    const turns = fakeOpenAITurns[readmeFile];
    const server = turns === undefined ? undefined : await FakeOpenAIServer.start(turns());
    try {
      const env = cleanEnv({
        OPENAI_API_KEY: 'sk-test',
        // Only where a local server plays OpenAI: the tracing README shows its traces.
        ...(server === undefined ? {} : { OPENAI_BASE_URL: server.baseURL, OPENAI_AGENTS_DISABLE_TRACING: '1' }),
      });
      const { stdout } = await exec(process.execPath, [join('out', file)], project, env, 120_000);
      const lines = stdout.split('\n').map((line) => line.trim());
      for (const expected of expectedOutput(code)) {
        const firstPart = expected.split(',')[0]!.trim();
        expect(lines.some((line) => line.startsWith(firstPart)), `"${expected}" in the output of ${readmeFile}:${file}:\n${stdout}`).toBe(true);
      }
      if (server !== undefined) expect(stdout.trim()).toBe('Lisbon is sunny, 21°C.');
    } finally {
      await server?.close();
    }
  });
});
