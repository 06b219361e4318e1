import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { batonImportFor, foldersLeftOut, withoutCounterpart } from '../importMap.js';
import { moveToBaton } from '../moveToBaton.js';
import { knownDifferences } from '../knownDifferences.js';

// The reference's own example programs (openai/openai-agents-js, examples/), programs we did not
// write: each one that type-checks (strict) against @openai/agents 0.20.0 must type-check against
// Baton once its imports are changed by the migration map. The examples come from a local mirror of
// the reference's repository at a pinned commit; without it the check says so and is skipped.
const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const referenceRepo = process.env.BATON_REFERENCE_REPO ?? '/work/.mirror/openai+openai-agents-js/repo';
const pinnedCommit = '6d0c61a5f62a5ed8142996a25b33446c810f84b3';
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const work = join(here, '.example-work');

const hasMirror = (() => {
  try {
    execFileSync('git', ['--git-dir', referenceRepo, 'cat-file', '-e', `${pinnedCommit}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasMirror) console.log(`reference examples: no mirror of openai-agents-js at ${referenceRepo} (commit ${pinnedCommit}); skipped`);

function typeScriptUnder(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root)) {
    if (entry === 'node_modules') continue;
    const path = join(root, entry);
    if (statSync(path).isDirectory()) found.push(...typeScriptUnder(path));
    else if (entry.endsWith('.ts')) found.push(path);
  }
  return found;
}

function writeTsconfig(root: string): void {
  const compilerOptions = {
    target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true,
    types: ['node'], allowImportingTsExtensions: true, resolveJsonModule: true, esModuleInterop: true,
  };
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['examples/**/*.ts'], exclude: ['**/node_modules'] }, null, 1));
}

/** Type-checks one tree; returns the diagnostics by program (path relative to the tree). */
function typeCheck(root: string): Promise<Map<string, string[]>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--pretty', 'false'], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', () => {
      const byProgram = new Map<string, string[]>();
      for (const line of output.split('\n')) {
        const match = /^(examples\/[^(]+)\(\d+,\d+\): error (.*)$/.exec(line);
        if (!match) continue;
        byProgram.set(match[1], [...(byProgram.get(match[1]) ?? []), match[2]]);
      }
      resolve(byProgram);
    });
  });
}

interface Outcome {
  programs: string[];
  passOnReference: string[];
  failOnBaton: Map<string, string[]>;
  unmapped: Map<string, string[]>;
}

let outcome: Outcome;

describe.skipIf(!hasMirror)("the reference's example programs type-check on Baton", () => {
  beforeAll(async () => {
    rmSync(work, { recursive: true, force: true });
    const referenceTree = join(work, 'reference');
    const batonTree = join(work, 'baton');
    mkdirSync(referenceTree, { recursive: true });
    const archive = execFileSync('git', ['--git-dir', referenceRepo, 'archive', pinnedCommit, 'examples'], { maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', referenceTree], { input: archive });
    for (const folder of Object.keys(foldersLeftOut)) rmSync(join(referenceTree, 'examples', folder), { recursive: true, force: true });

    // Every .ts file is rewritten (declaration stubs too); the programs are the files that are not declarations.
    const sources = typeScriptUnder(join(referenceTree, 'examples')).map((path) => relative(referenceTree, path));
    const programs = sources.filter((path) => !path.endsWith('.d.ts'));
    const unmapped = new Map<string, string[]>();
    cpSync(referenceTree, batonTree, { recursive: true });
    for (const source of sources) {
      const moved = moveToBaton(readFileSync(join(referenceTree, source), 'utf8'));
      writeFileSync(join(batonTree, source), moved.source);
      if (moved.unmapped.length > 0) unmapped.set(source, moved.unmapped);
    }
    // A control program with a type error: proves the Baton tree's diagnostics are read.
    writeFileSync(join(batonTree, 'examples', 'control.ts'), "import { Agent } from '@baton/agents';\nnew Agent({ name: 1 });\n");
    writeTsconfig(referenceTree);
    writeTsconfig(batonTree);

    const [onReference, onBaton] = await Promise.all([typeCheck(referenceTree), typeCheck(batonTree)]);
    expect(onBaton.get('examples/control.ts')?.join('\n')).toContain('TS2322');
    const passOnReference = programs.filter((program) => !onReference.has(program));
    const failOnBaton = new Map<string, string[]>();
    for (const program of passOnReference) {
      if (unmapped.has(program)) continue;
      const errors = onBaton.get(program);
      if (errors) failOnBaton.set(program, errors);
    }
    outcome = { programs, passOnReference, failOnBaton, unmapped };
    const leftOut = passOnReference.filter((program) => unmapped.has(program)).length;
    console.log(
      `reference examples: ${programs.length} programs, ${passOnReference.length} type-check on @openai/agents 0.20.0; ` +
        `of these ${passOnReference.length - leftOut - failOnBaton.size} type-check on Baton, ${failOnBaton.size} not yet ` +
        `(${Object.keys(knownDifferences).length} listed), ${leftOut} left out (a module without counterpart)`,
    );
  }, 600_000);

  it('the harness compiled the examples (most type-check on the reference)', () => {
    expect(outcome.programs.length).toBeGreaterThan(200);
    expect(outcome.passOnReference.length).toBeGreaterThan(200);
  });

  it('every example that type-checks on the reference type-checks on Baton, or is listed with its reason', () => {
    const unexplained = [...outcome.failOnBaton].filter(([program]) => !(program in knownDifferences));
    expect(Object.fromEntries(unexplained)).toEqual({});
  });

  it('the list of differences holds only examples that really fail (so it shrinks as work lands)', () => {
    expect(Object.keys(knownDifferences).filter((program) => !outcome.failOnBaton.has(program))).toEqual([]);
  });

  it('an example left out for an import Baton has no counterpart for names a module on the out-of-scope list', () => {
    const leftOut = outcome.passOnReference.flatMap((program) => outcome.unmapped.get(program) ?? []);
    const unexplained = leftOut.filter((specifier) => !(specifier in withoutCounterpart));
    expect([...new Set(unexplained)]).toEqual([]);
  });
});

describe('moving a program to Baton', () => {
  it('rewrites static, dynamic and side-effect imports by the map and reports the modules it cannot map', () => {
    const { source, unmapped } = moveToBaton(
      [
        "import { Agent } from '@openai/agents';",
        'import { aisdk } from "@openai/agents-extensions/ai-sdk";',
        "const testing = await import('@openai/agents/testing');",
        "import '@openai/agents/realtime';",
        "import OpenAI from 'openai';",
      ].join('\n'),
    );
    expect(source).toBe(
      [
        "import { Agent } from '@baton/agents';",
        'import { aisdk } from "@baton/ai-sdk-provider";',
        "const testing = await import('@baton/agents/testing');",
        "import '@openai/agents/realtime';",
        "import OpenAI from 'openai';",
      ].join('\n'),
    );
    expect(unmapped).toEqual(['@openai/agents/realtime']);
  });

  it('the migration guide states the same map', () => {
    const guide = readFileSync(join(here, '..', '..', 'docs', 'guide', 'migration.md'), 'utf8');
    for (const [from, to] of Object.entries(batonImportFor)) expect(guide).toContain(`| \`${from}\` | \`${to}\` |`);
  });

  it('every module the map names exists in Baton', async () => {
    for (const target of new Set(Object.values(batonImportFor))) await expect(import(target)).resolves.toBeDefined();
  });
});
