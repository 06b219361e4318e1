/**
 * The READMEs, as users follow them from the registry: the root README and each package README, its
 * install lines (its first shell block that has any) in an empty project, its complete code blocks
 * type-checked as ES modules and as CommonJS (`tsc --strict`, `skipLibCheck: false`) and run both
 * ways (documents.ts). One README's install line is also followed with pnpm, and its block run in
 * what pnpm laid out. Also checks that every package is published without `workspace:` ranges.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeText, fakeToolCalls } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { blockFile, type Block, type RunResult } from './blockRunner.js';
import { describeDocument, followDocument, runDocumentBlock, runDocuments, type FakeOpenAI, type FollowedDocument } from './documents.js';
import { writeInstallReport } from './installReport.js';
import { parseReadme } from './readmeBlocks.js';
import { enabled, publishable, root, type RegistrySession } from './registrySession.js';
import { cleanEnv, exec } from './userShell.js';

const pnpmEntry = join(root, '.tools', 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
const readmeFiles = ['README.md', ...publishable.map(({ dir }) => `${dir}/README.md`).filter((file) => existsSync(join(root, file)))];
const readmes = new Map(readmeFiles.map((file) => [file, parseReadme(readFileSync(join(root, file), 'utf8'))]));

/** The README whose install line is also followed with pnpm (once: pnpm's layout is what it checks). */
const PNPM_README = 'packages/agents/README.md';
/** The README whose install is measured for the install-size report (`npm install @baton/agents zod`). */
const MEASURED_README = 'packages/agents/README.md';

// The root quickstart talks to OpenAI with OPENAI_API_KEY: a local server plays that model.
const fakeOpenAI: Record<string, FakeOpenAI> = {
  'README.md': {
    turns: () => ({ turns: [fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Lisbon' } }]), fakeText('Lisbon is sunny, 21°C.')] }),
    prints: 'Lisbon is sunny, 21°C.',
  },
};

const documents = new Map<string, FollowedDocument>();
let pnpmRun: Promise<RunResult>;

/** The pnpm project: the README's install lines as `pnpm add`, from the same registry; its first runnable block run there. */
async function followWithPnpm(session: RegistrySession, document: FollowedDocument): Promise<RunResult> {
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
  return session.run(() => session.timed(`run ${document.file} ${block.label} under pnpm (esm)`, () => runDocumentBlock(document, inPnpm, 'esm')));
}

/** Starts the installs, adds the blocks to the session's type-check. Call before `session.seal()`. */
export function prepareReadmes(session: RegistrySession): void {
  for (const [file, readme] of readmes) {
    const document = followDocument(session, file, readme, fakeOpenAI[file]);
    documents.set(file, document);
    if (file === MEASURED_README) {
      // Measured before any other document sharing the project adds to it (none installs more: same packages).
      void document.shared.installed.then(() => writeInstallReport(document.shared.project, readme.installLines), () => {});
    }
  }
  pnpmRun = followWithPnpm(session, documents.get(PNPM_README)!);
  pnpmRun.catch(() => {});
}

/** Starts the runs (after the type-check). Call after `session.seal()`. */
export function runReadmes(session: RegistrySession): void {
  runDocuments(session, documents.values());
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

  describe.each(readmeFiles)('%s, as a user follows it', (file) => {
    describeDocument(session, file, readmes.get(file)!, () => documents.get(file)!);

    if (file === PNPM_README) {
      it.runIf(enabled)('installs with pnpm (its install lines as pnpm add) and runs its block there', async () => {
        expect((await pnpmRun).problems, `${file} under pnpm`).toEqual([]);
      });
    }
  });
}
