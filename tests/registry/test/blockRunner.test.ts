/**
 * The README block runner itself, on seeded blocks in a throwaway project (no registry): a block that
 * is broken — a type error, a throw, a promised line it does not print — fails, as ES module and as
 * CommonJS, and does not take the good block checked beside it down with it.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asCommonJs, blockFile, expectedOutput, runBlock, typeCheck, writeBlocks, type Block, type TypeCheckResult } from './blockRunner.js';
import { cleanEnv } from './userShell.js';

let work: string;
let blocks: Record<'good' | 'typeError' | 'throws' | 'wrongOutput', Block>;
let checked: TypeCheckResult;

beforeAll(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'baton-block-runner-')));
  const project = join(work, 'project');
  blocks = {
    // A comment on the line after a console.log is not what it prints.
    good: { id: 'good', project, code: "const answer: number = await Promise.resolve(42);\nconsole.log(answer); // 42\nconsole.log(['a', 'b'].join(', '));\n// a comment of its own\n" },
    typeError: { id: 'type-error', project, code: "const answer: number = 'forty-two';\nconsole.log(answer); // forty-two\n" },
    throws: { id: 'throws', project, code: "console.log('before'); // before\nthrow new Error('broken on purpose');\n" },
    wrongOutput: { id: 'wrong-output', project, code: "console.log('41'); // 42\n" },
  };
  writeBlocks(Object.values(blocks));
  checked = await typeCheck(Object.values(blocks), join(work, 'tsc'));
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the README block runner', () => {
  it('type-checks all blocks in one program and blames a type error on its own block only', () => {
    expect(checked.programs).toHaveLength(1);
    for (const kind of ['esm', 'cjs'] as const) {
      expect(checked.errors.get(blockFile(blocks.good, kind)), `good (${kind})`).toEqual([]);
      expect(checked.errors.get(blockFile(blocks.throws, kind)), `throws (${kind})`).toEqual([]);
      const errors = checked.errors.get(blockFile(blocks.typeError, kind))!;
      expect(errors.join('\n'), `type-error (${kind})`).toMatch(/error TS2322: Type 'string' is not assignable to type 'number'/);
    }
  });

  it.each(['esm', 'cjs'] as const)('runs a good block (%s) and finds what it promises in order', async (kind) => {
    const result = await runBlock(blocks.good, kind, cleanEnv());
    expect(result.problems).toEqual([]);
    expect(result.stdout).toBe('42\na, b\n');
    expect(expectedOutput(blocks.good.code)).toEqual(['42']);
  });

  it.each(['esm', 'cjs'] as const)('fails a block that throws (%s), naming the exit and the error', async (kind) => {
    const result = await runBlock(blocks.throws, kind, cleanEnv());
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(/exited with 1/);
    expect(result.problems[0]).toMatch(/broken on purpose/);
  });

  it.each(['esm', 'cjs'] as const)('fails a block that does not print what its comment says (%s)', async (kind) => {
    const result = await runBlock(blocks.wrongOutput, kind, cleanEnv());
    expect(result.problems).toEqual([expect.stringContaining('"42" not printed')]);
  });

  it('fails a block that was never emitted', async () => {
    const missing: Block = { id: 'never-written', project: blocks.good.project, code: "console.log('x'); // x\n" };
    expect((await runBlock(missing, 'esm', cleanEnv())).problems).toEqual([expect.stringContaining('was not emitted')]);
  });

  it('makes a CommonJS script of a block: imports and declares kept on top, the rest in an async function, exports dropped', () => {
    const code = "import { a } from 'a'; // a comment\nimport {\n  b,\n  c,\n} from 'b';\nimport 'side-effect';\ndeclare function load(id: string): Promise<string>;\n\nexport class Echo {}\nexport async function go() {}\nconsole.log(await a(b, c, new Echo(), go)); // x\nexport { Echo as Default };\n";
    expect(asCommonJs(code)).toBe(
      "import { a } from 'a'; // a comment\nimport {\n  b,\n  c,\n} from 'b';\nimport 'side-effect';\ndeclare function load(id: string): Promise<string>;\n\nasync function main(): Promise<void> {\n\n\n\n\n\nclass Echo {}\nasync function go() {}\nconsole.log(await a(b, c, new Echo(), go)); // x\n\n\n}\nvoid main();\n",
    );
  });

  it('keeps an import line that is inside a string where it is (a script the block writes to disk)', () => {
    const code = "import { writeFileSync } from 'node:fs';\nwriteFileSync('cli.mjs', `#!/usr/bin/env node\nimport { readFileSync } from 'node:fs';\nconsole.log(readFileSync(0, 'utf8'));\n`);\nexport default function helper() {}\n";
    const script = asCommonJs(code);
    expect(script.split('async function main')[0]).toBe("import { writeFileSync } from 'node:fs';\n\n");
    expect(script).toContain("`#!/usr/bin/env node\nimport { readFileSync } from 'node:fs';\nconsole.log(readFileSync(0, 'utf8'));\n`");
    expect(script).toContain('\nfunction helper() {}\n');
  });
});

describe('a broken declaration file installed in projects', () => {
  it('fails the blocks of the projects that have it, not the others checked beside them', async () => {
    const project = (name: string, withBroken: boolean): Block => {
      const dir = join(work, 'installed', name);
      if (withBroken) {
        const pkg = join(dir, 'node_modules', 'broken');
        mkdirSync(pkg, { recursive: true });
        writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'broken', version: '1.0.0', main: 'index.js', types: 'index.d.ts' }));
        writeFileSync(join(pkg, 'index.js'), 'exports.answer = 42;\n');
        writeFileSync(join(pkg, 'index.d.ts'), 'export declare const answer: NoSuchType;\n');
      }
      const code = withBroken ? "import { answer } from 'broken';\nconsole.log(answer); // 42\n" : "console.log(42); // 42\n";
      return { id: 'block', project: dir, code };
    };
    const first = project('first', true);
    const second = project('second', true);
    const without = project('without', false);
    writeBlocks([first, second, without]);
    const { errors, programs } = await typeCheck([first, second, without], join(work, 'tsc-installed'));
    expect(programs).toHaveLength(1);
    for (const block of [first, second]) {
      expect(errors.get(blockFile(block, 'esm'))!.join('\n'), block.project).toMatch(/broken[/\\]index\.d\.ts: line 1: error TS\d+: Cannot find name 'NoSuchType'/);
    }
    expect(errors.get(blockFile(without, 'esm'))).toEqual([]);
    expect(errors.get(blockFile(without, 'cjs'))).toEqual([]);
  }, 300_000);
});
