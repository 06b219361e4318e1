/**
 * A document (a README, a docs guide) followed as a user follows it from the registry: its install
 * lines in an empty project (shared with every document that installs the same packages, see
 * `RegistrySession.followInstallLines`), its complete code blocks type-checked as ES modules and as
 * CommonJS (`tsc --strict`, `skipLibCheck: false`) and run both ways, checking what their
 * `// comments` say they print. Every package a block imports must be named by the document's
 * install lines: one a dependency happens to bring is not what the user was told to install.
 */
import { FakeOpenAIServer } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { blockFile, runBlock, type Block, type ModuleKind, type RunResult } from './blockRunner.js';
import { importedPackages, installedPackages, type CodeBlock, type Readme } from './readmeBlocks.js';
import { enabled, type RegistrySession, type SharedProject } from './registrySession.js';
import { cleanEnv } from './userShell.js';

/** A local server playing OpenAI for a document's blocks (OPENAI_BASE_URL), and what the block must then print. */
export interface FakeOpenAI {
  turns: () => Parameters<typeof FakeOpenAIServer.start>[0];
  prints: string;
}

export interface DocumentBlock extends Block {
  line: number;
  run: boolean;
  /** How the tests name it: `line 33`, or the sample it includes. */
  label: string;
}

/** `line 33`, or for an included sample its file (`samples/quickstart.ts`). */
function labelOf(block: CodeBlock): string {
  return block.source === undefined ? `line ${block.line}` : block.source.replace(/^@\//, '');
}

export interface FollowedDocument {
  file: string;
  readme: Readme;
  shared: SharedProject;
  blocks: DocumentBlock[];
  fakeOpenAI?: FakeOpenAI;
}

/** The document's blocks, each written into the project its install lines make (ids unique across documents). */
export function followDocument(session: RegistrySession, file: string, readme: Readme, fakeOpenAI?: FakeOpenAI): FollowedDocument {
  const shared = session.followInstallLines(file, readme.installLines);
  const slug = file.replace(/\/README\.md$|\.md$/, '').replace(/[^\w-]+/g, '-');
  const blocks = readme.blocks.map((block, index) => ({
    id: `${slug}-${index + 1}-line-${block.line}`,
    project: shared.project,
    code: block.code,
    line: block.line,
    run: block.run,
    label: labelOf(block),
  }));
  session.addBlocks(shared.installed.then(() => blocks));
  return { file, readme, shared, blocks, ...(fakeOpenAI === undefined ? {} : { fakeOpenAI }) };
}

/** Runs a block's emitted module in its project (a local OpenAI server where the document has one). */
export async function runDocumentBlock(document: FollowedDocument, block: Block, kind: ModuleKind): Promise<RunResult> {
  const fake = document.fakeOpenAI;
  const server = fake === undefined ? undefined : await FakeOpenAIServer.start(fake.turns());
  try {
    const env = cleanEnv({
      OPENAI_API_KEY: 'sk-test',
      // Only where a local server plays OpenAI: elsewhere the tracing READMEs show their traces.
      ...(server === undefined ? {} : { OPENAI_BASE_URL: server.baseURL, OPENAI_AGENTS_DISABLE_TRACING: '1' }),
    });
    const result = await runBlock(block, kind, env);
    if (fake !== undefined && result.stdout.trim() !== fake.prints) result.problems.push(`printed ${JSON.stringify(result.stdout.trim())}, not the fake model's answer`);
    return result;
  } finally {
    await server?.close();
  }
}

const runs = new Map<string, Promise<RunResult>>();

/** Starts the runs of the documents' runnable blocks, ES module and CommonJS. Call after `session.seal()`. */
export function runDocuments(session: RegistrySession, documents: Iterable<FollowedDocument>): void {
  for (const document of documents) {
    for (const block of document.blocks.filter((entry) => entry.run)) {
      for (const kind of ['esm', 'cjs'] as const) {
        const run = session.checked.then(() => session.run(() => session.timed(`run ${document.file} ${block.label} (${kind})`, () => runDocumentBlock(document, block, kind))));
        run.catch(() => {});
        runs.set(`${block.id}:${kind}`, run);
      }
    }
  }
}

/**
 * The tests of one document: its install lines name what its blocks import (checked without the
 * registry), they install, each block type-checks and each runnable one runs, both ways. `follow`
 * gives the document once the session has prepared it.
 */
export function describeDocument(session: RegistrySession, file: string, readme: Readme, follow: () => FollowedDocument): void {
  const installed = installedPackages(readme.installLines);
  // [label, index] rows: vitest prints a %s without quotes or truncation.
  const blocks = readme.blocks.map((block, index): [string, number] => [labelOf(block), index]);
  const runnable = readme.blocks.flatMap((block, index) => (block.run ? (['esm', 'cjs'] as const).map((kind): [string, 'esm' | 'cjs', number] => [labelOf(block), kind, index]) : []));

  it('has an npm install line', () => {
    expect(readme.installLines.length, `${file} has an npm install line`).toBeGreaterThan(0);
  });

  if (blocks.length > 0) {
    it.each(blocks)('its install lines name what the block at %s imports', (_label, index) => {
      expect(
        [...importedPackages(readme.blocks[index]!.code)].filter((name) => !installed.has(name)),
        `${file}: imported but not installed by its lines (${readme.installLines.map((args) => `npm install ${args.join(' ')}`).join('; ')})`,
      ).toEqual([]);
    });
  }

  describe.runIf(enabled)('from the registry', () => {
    it('installs with its install lines', async () => {
      await follow().shared.installed;
    });

    if (blocks.length > 0) {
      it.each(blocks)('type-checks the block at %s, as an ES module and as CommonJS (tsc --strict, skipLibCheck: false)', async (_label, index) => {
        const document = follow();
        await document.shared.installed;
        const { errors } = await session.checked;
        const block = document.blocks[index]!;
        for (const kind of ['esm', 'cjs'] as const) {
          expect(errors.get(blockFile(block, kind)), `${file} ${block.label} (${kind}): tsc`).toEqual([]);
        }
      });
    }

    if (runnable.length > 0) {
      it.each(runnable)('runs the block at %s as published (%s)', async (_label, kind, index) => {
        const block = follow().blocks[index]!;
        const result = await runs.get(`${block.id}:${kind}`)!;
        expect(result.problems, `${file}: the block at ${block.label} run as ${kind}`).toEqual([]);
      });
    }
  });
}
