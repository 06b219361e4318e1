/**
 * The READMEs, as users follow them from the registry: the root README and each package README, in
 * an empty folder each, its install lines with npm, its complete code blocks type-checked as ES
 * modules and as CommonJS (`tsc --strict`, `skipLibCheck: false`) and run both ways, checking what
 * their `// comments` say they print. One README's install line is also followed with pnpm, and its
 * block run in what pnpm laid out.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { blockFile, runBlock, type Block, type ModuleKind, type RunResult } from './blockRunner.js';
import { writeInstallReport } from './installReport.js';
import { parseReadme, type Readme } from './readmeBlocks.js';
import { enabled, publishable, root, type RegistrySession } from './registrySession.js';
import { cleanEnv, exec } from './userShell.js';

const pnpmEntry = join(root, '.tools', 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
const readmeFiles = ['README.md', ...publishable.map(({ dir }) => `${dir}/README.md`).filter((file) => existsSync(join(root, file)))];

/** The README whose install line is also followed with pnpm (once: pnpm's layout is what it checks). */
const PNPM_README = 'packages/agents/README.md';

// The root quickstart talks to OpenAI with OPENAI_API_KEY: a local server plays that model.
const fakeOpenAITurns: Record<string, () => Parameters<typeof FakeOpenAIServer.start>[0]> = {
  'README.md': () => ({ turns: [fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Lisbon' } }]), fakeText('Lisbon is sunny, 21°C.')] }),
};

interface Document {
  file: string;
  readme: Readme;
  blocks: Array<Block & { line: number; run: boolean }>;
}

const documents = new Map<string, Document>();
const installed = new Map<string, Promise<void>>();
const runs = new Map<string, Promise<RunResult>>();
let pnpmRun: Promise<RunResult>;

function slugOf(file: string): string {
  return file.replace(/\/README\.md$|\.md$/, '').replace(/[/.]/g, '-');
}

async function runChecked(document: Document, block: Block, kind: ModuleKind): Promise<RunResult> {
  const turns = fakeOpenAITurns[document.file];
  const server = turns === undefined ? undefined : await FakeOpenAIServer.start(turns());
  try {
    const env = cleanEnv({
      OPENAI_API_KEY: 'sk-test',
      // Only where a local server plays OpenAI: the tracing README shows its traces.
      ...(server === undefined ? {} : { OPENAI_BASE_URL: server.baseURL, OPENAI_AGENTS_DISABLE_TRACING: '1' }),
    });
    const result = await runBlock(block, kind, env);
    if (server !== undefined && result.stdout.trim() !== 'Lisbon is sunny, 21°C.') result.problems.push(`printed ${JSON.stringify(result.stdout.trim())}, not the fake model's answer`);
    return result;
  } finally {
    await server?.close();
  }
}

/** The pnpm project: the README's install lines as `pnpm add`, from the same registry; its first runnable block run there. */
async function followWithPnpm(session: RegistrySession, document: Document): Promise<RunResult> {
  const project = session.project('readme-pnpm');
  // pnpm reads the project's .npmrc: the registry's config, as for npm.
  copyFileSync(session.registry.npmrc, join(project, '.npmrc'));
  await session.install(() =>
    session.timed(`pnpm add: ${document.file}'s install lines`, async () => {
      for (const args of document.readme.installLines) {
        await exec(process.execPath, [pnpmEntry, 'add', '--prefer-offline', '--reporter=append-only', ...args], project, cleanEnv(), 600_000);
      }
    }),
  );
  const block = document.blocks.find((entry) => entry.run);
  if (block === undefined) throw new Error(`${document.file} has no runnable block to run under pnpm`);
  const inPnpm: Block = { ...block, project };
  await session.checked;
  copyFileSync(blockFile(block, 'esm', true), blockFile(inPnpm, 'esm', true));
  return session.run(() => session.timed(`run ${document.file} line ${block.line} under pnpm (esm)`, () => runChecked(document, inPnpm, 'esm')));
}

/** Starts the installs, adds the blocks to the session's type-check. Call before `session.seal()`. */
export function prepareReadmes(session: RegistrySession): void {
  for (const file of readmeFiles) {
    const project = session.project(`readme-${slugOf(file)}`);
    const readme = parseReadme(readFileSync(join(root, file), 'utf8'));
    const blocks = readme.blocks.map((block, index) => ({ id: `block-${index + 1}-line-${block.line}`, project, code: block.code, line: block.line, run: block.run }));
    const document = { file, readme, blocks };
    documents.set(file, document);
    const done = (async () => {
      for (const args of readme.installLines) await session.npmInstall(`install ${file}${readme.installLines.length > 1 ? ` (npm install ${args.join(' ')})` : ''}`, project, args);
      if (file === 'packages/agents/README.md') writeInstallReport(project, readme.installLines);
    })();
    installed.set(file, done);
    session.addBlocks(done.then(() => blocks));
  }
  pnpmRun = followWithPnpm(session, documents.get(PNPM_README)!);
  pnpmRun.catch(() => {});
  for (const promise of installed.values()) promise.catch(() => {});
}

/** Starts the runs (after the type-check). Call after `session.seal()`. */
export function runReadmes(session: RegistrySession): void {
  for (const document of documents.values()) {
    for (const block of document.blocks.filter((entry) => entry.run)) {
      for (const kind of ['esm', 'cjs'] as const) {
        const run = session.checked.then(() => session.run(() => session.timed(`run ${document.file} line ${block.line} (${kind})`, () => runChecked(document, block, kind))));
        run.catch(() => {});
        runs.set(`${document.file}:${block.id}:${kind}`, run);
      }
    }
  }
}

export function describeReadmes(session: RegistrySession): void {
  describe.runIf(enabled)('npm run release to a local registry', () => {
    it.each(publishable.map(({ manifest }) => manifest))('publishes $name@$version', async ({ name, version }) => {
      const response = await fetch(`${session.registry.url}${name.replace('/', '%2f')}`);
      expect(response.status, `${name} on the registry`).toBe(200);
      const packument = (await response.json()) as { versions: Record<string, { dependencies?: Record<string, string> }> };
      const published = packument.versions[version];
      expect(published, `${name}@${version} published`).toBeDefined();
      for (const [dependency, range] of Object.entries(published!.dependencies ?? {})) {
        expect(range, `${name} → ${dependency}`).not.toMatch(/^workspace:/);
      }
    });
  });

  describe.runIf(enabled).each(readmeFiles)('%s, as a user follows it from the registry', (file) => {
    const readme = parseReadme(readFileSync(join(root, file), 'utf8'));

    it('installs with its install lines', async () => {
      expect(readme.installLines.length, `${file} has an npm install line`).toBeGreaterThan(0);
      await installed.get(file);
    });

    const blocks = readme.blocks.map((block, index) => ({ ...block, id: `block-${index + 1}-line-${block.line}` }));
    if (blocks.length > 0) {
      it.each(blocks)('type-checks the block at line $line, as an ES module and as CommonJS (tsc --strict, skipLibCheck: false)', async ({ id }) => {
        await installed.get(file);
        const { errors } = await session.checked;
        const block = documents.get(file)!.blocks.find((entry) => entry.id === id)!;
        for (const kind of ['esm', 'cjs'] as const) {
          expect(errors.get(blockFile(block, kind)), `${file}:${block.line} (${kind}): tsc`).toEqual([]);
        }
      });
    }

    const runnable = blocks.filter((block) => block.run).flatMap((block) => (['esm', 'cjs'] as const).map((kind) => ({ ...block, kind })));
    if (runnable.length > 0) {
      it.each(runnable)('runs the block at line $line as published ($kind)', async ({ id, kind }) => {
        const result = await runs.get(`${file}:${id}:${kind}`)!;
        expect(result.problems, `${file}: the block ${id} run as ${kind}`).toEqual([]);
      });
    }

    if (file === PNPM_README) {
      it('installs with pnpm (its install lines as pnpm add) and runs its block there', async () => {
        expect((await pnpmRun).problems, `${file} under pnpm`).toEqual([]);
      });
    }
  });
}
