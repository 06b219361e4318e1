import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'scripts', 'mutation.mjs');

type Mutant = { status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError'; line: number; mutator?: string; replacement?: string };

/**
 * A project with the mutation script, one module (`checks`, package `pkg`, mutating `src/check.ts`),
 * and a stand-in for Stryker that records the config it was given and writes `mutants` as Stryker's
 * JSON report for src/check.ts.
 */
function workspace(mutants: Mutant[], moduleExtra: Record<string, unknown> = {}) {
  const project = mkdtempSync(join(tmpdir(), 'mutation-'));
  onTestFinished(() => rmSync(project, { recursive: true, force: true }));
  mkdirSync(join(project, 'scripts'));
  copyFileSync(script, join(project, 'scripts', 'mutation.mjs'));
  writeFileSync(join(project, 'package.json'), '{"private":true}');
  mkdirSync(join(project, 'mutation'));
  writeFileSync(
    join(project, 'mutation', 'modules.json'),
    JSON.stringify({ modules: [{ name: 'checks', package: 'pkg', mutate: ['src/**/*.ts'], promise: 'a promise', ...moduleExtra }] }),
  );
  mkdirSync(join(project, 'pkg', 'src', 'deep'), { recursive: true });
  mkdirSync(join(project, 'pkg', 'test'));
  writeFileSync(join(project, 'pkg', 'src', 'check.ts'), 'export const limit = (n: number) => n > 200;\n');
  writeFileSync(join(project, 'pkg', 'src', 'deep', 'other.ts'), 'export const x = 1;\n');
  writeFileSync(join(project, 'pkg', 'test', 'check.test.ts'), 'it("limit", () => {});\n');
  writeFileSync(join(project, 'pkg', 'vitest.config.ts'), 'export default {};\n');
  const runner = join(project, 'node_modules', '@stryker-mutator', 'vitest-runner');
  mkdirSync(runner, { recursive: true });
  writeFileSync(join(runner, 'package.json'), '{"name":"@stryker-mutator/vitest-runner","main":"index.js"}');
  writeFileSync(join(runner, 'index.js'), '');
  const bin = join(project, 'node_modules', '@stryker-mutator', 'core', 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(project, 'mutants.json'), JSON.stringify(mutants));
  writeFileSync(
    join(bin, 'stryker.js'),
    `const fs = require('fs');
const config = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const vitestConfig = fs.readFileSync(config.vitest.configFile, 'utf8');
fs.appendFileSync(${JSON.stringify(join(project, 'stryker-calls.jsonl'))}, JSON.stringify({ cwd: process.cwd(), config, vitestConfig }) + '\\n');
const mutants = JSON.parse(fs.readFileSync(${JSON.stringify(join(project, 'mutants.json'))}, 'utf8'));
const report = { schemaVersion: '2', files: { 'src/check.ts': { language: 'typescript', source: fs.readFileSync('src/check.ts', 'utf8'),
  mutants: mutants.map((m, i) => ({ id: String(i), mutatorName: m.mutator ?? 'ConditionalExpression', replacement: m.replacement ?? 'true', status: m.status,
    location: { start: { line: m.line, column: 1 }, end: { line: m.line, column: 5 } } })) } } };
fs.mkdirSync(require('path').dirname(config.jsonReporter.fileName), { recursive: true });
fs.writeFileSync(config.jsonReporter.fileName, JSON.stringify(report));
`,
  );
  const run = (...args: string[]) => {
    const result = spawnSync(process.execPath, [join(project, 'scripts', 'mutation.mjs'), ...args], { cwd: project, encoding: 'utf8' });
    return { code: result.status, out: result.stdout + result.stderr };
  };
  const calls = () =>
    existsSync(join(project, 'stryker-calls.jsonl'))
      ? readFileSync(join(project, 'stryker-calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
      : [];
  const record = () => JSON.parse(readFileSync(join(project, 'mutation', 'scores.json'), 'utf8'));
  const setMutants = (next: Mutant[]) => writeFileSync(join(project, 'mutants.json'), JSON.stringify(next));
  return { project, run, calls, record, setMutants };
}

const killed = (n: number): Mutant[] => Array.from({ length: n }, (_, i) => ({ status: 'Killed', line: 1, replacement: `k${i}` }));

describe('mutation testing (scripts/mutation.mjs)', () => {
  it('runs Stryker from the module package with its vitest config, the module globs and per-test coverage', () => {
    const { run, calls } = workspace(killed(2));
    expect(run('run', 'checks').code).toBe(0);
    const [call] = calls();
    expect(call.cwd.endsWith(join('pkg'))).toBe(true);
    expect(call.config).toMatchObject({ testRunner: 'vitest', mutate: ['src/**/*.ts'], coverageAnalysis: 'perTest', vitest: { configFile: 'vitest.config.ts' } });
  });

  it('scores detected / (detected + survived + no coverage), leaving compile errors out', () => {
    const { run } = workspace([
      ...killed(6),
      { status: 'Timeout', line: 1 },
      { status: 'Survived', line: 1, replacement: 's1' },
      { status: 'NoCoverage', line: 1, replacement: 'n1' },
      { status: 'Survived', line: 1, replacement: 's2' },
      { status: 'CompileError', line: 1 },
    ]);
    const { out } = run('run', 'checks');
    expect(out).toContain('score 70%');
    expect(out).toContain('survived 2, no coverage 1');
  });

  it('records score, floor and hash only with --record, and writes the survivors with their source line', () => {
    const { project, run, record } = workspace([...killed(3), { status: 'Survived', line: 1, mutator: 'EqualityOperator', replacement: 'n >= 200' }]);
    run('run', 'checks');
    expect(existsSync(join(project, 'mutation', 'scores.json'))).toBe(false);
    run('run', '--record', 'checks');
    expect(record().checks).toMatchObject({ score: 75, floor: 75 });
    const survivors = readFileSync(join(project, 'mutation', 'survivors', 'checks.txt'), 'utf8');
    expect(survivors).toContain('src/check.ts:1:1 Survived EqualityOperator -> "n >= 200"');
    expect(survivors).toContain('export const limit = (n: number) => n > 200;');
  });

  it('does not count a mutant listed as equivalent, with its reason', () => {
    const { project, run } = workspace([...killed(3), { status: 'Survived', line: 1, mutator: 'EqualityOperator', replacement: 'n >= 200' }]);
    writeFileSync(
      join(project, 'mutation', 'equivalent.json'),
      JSON.stringify({ checks: [{ file: 'src/check.ts', line: 1, mutator: 'EqualityOperator', replacement: 'n >= 200', reason: 'n is never exactly 200 here' }] }),
    );
    expect(run('run', 'checks').out).toContain('score 100%');
  });

  it('tells apart equivalent mutants on one line by column when the entry gives one', () => {
    const { project, run } = workspace([...killed(2), { status: 'Survived', line: 1, mutator: 'ConditionalExpression', replacement: 'true' }]);
    const listing = (column: number) =>
      writeFileSync(
        join(project, 'mutation', 'equivalent.json'),
        JSON.stringify({ checks: [{ file: 'src/check.ts', line: 1, column, mutator: 'ConditionalExpression', replacement: 'true', reason: 'r' }] }),
      );
    listing(7);
    expect(run('run', 'checks').out).toContain('equivalent 0');
    listing(1);
    expect(run('run', 'checks').out).toContain('equivalent 1');
  });

  it('an entry that gives its line as code follows the line when edits above move it, and stops matching once the line itself changes', () => {
    const { project, run } = workspace([...killed(2), { status: 'Survived', line: 3, mutator: 'EqualityOperator', replacement: 'n >= 200' }]);
    const source = (lines: string[]) => writeFileSync(join(project, 'pkg', 'src', 'check.ts'), lines.join('\n') + '\n');
    source(['// a comment added above', '', 'export const limit = (n: number) => n > 200;']);
    const listing = (entry: Record<string, unknown>) =>
      writeFileSync(
        join(project, 'mutation', 'equivalent.json'),
        JSON.stringify({ checks: [{ file: 'src/check.ts', mutator: 'EqualityOperator', replacement: 'n >= 200', reason: 'r', ...entry }] }),
      );
    // Listed when the line was line 1: by line alone it no longer matches, by its code it does.
    listing({ line: 1 });
    expect(run('run', 'checks').out).toContain('equivalent 0');
    listing({ line: 1, code: 'export const limit = (n: number) => n > 200;' });
    expect(run('run', 'checks').out).toContain('equivalent 1');
    source(['// a comment added above', '', 'export const limit = (n: number) => n > 201;']);
    expect(run('run', 'checks').out).toContain('equivalent 0');
  });

  it('rescore: scores the last run again with the equivalents listed since, without Stryker; refused once the module changed', () => {
    const { project, run, calls, record } = workspace([...killed(3), { status: 'Survived', line: 1, mutator: 'EqualityOperator', replacement: 'n >= 200' }]);
    expect(run('rescore', 'checks')).toMatchObject({ code: 1, out: expect.stringContaining('module "checks" has no report of a run here') });
    run('run', 'checks');
    writeFileSync(
      join(project, 'mutation', 'equivalent.json'),
      JSON.stringify({ checks: [{ file: 'src/check.ts', line: 1, mutator: 'EqualityOperator', replacement: 'n >= 200', reason: 'n is never exactly 200 here' }] }),
    );
    const rescored = run('rescore', '--record', 'checks');
    expect(rescored.code).toBe(0);
    expect(rescored.out).toContain('score 100%');
    expect(calls()).toHaveLength(1);
    expect(record().checks).toMatchObject({ score: 100, floor: 100 });
    expect(readFileSync(join(project, 'mutation', 'survivors', 'checks.txt'), 'utf8')).toBe('');
    writeFileSync(join(project, 'pkg', 'test', 'check.test.ts'), 'it("limit, changed", () => {});\n');
    expect(run('rescore', 'checks')).toMatchObject({ code: 1, out: expect.stringContaining('module "checks" changed (sources, tests or definition) since its last run') });
  });

  it('--fresh measures every mutant again: the module\'s incremental cache is dropped first', () => {
    const { project, run } = workspace(killed(1));
    const cache = join(project, '.mutation', 'incremental', 'checks.json');
    mkdirSync(dirname(cache), { recursive: true });
    writeFileSync(cache, '{}');
    run('run', 'checks');
    expect(existsSync(cache)).toBe(true);
    run('run', '--fresh', 'checks');
    expect(existsSync(cache)).toBe(false);
  });

  it('--retest-survivors drops only the undetected mutants from the incremental cache, so Stryker measures them again', () => {
    const { project, run } = workspace(killed(1));
    const cache = join(project, '.mutation', 'incremental', 'checks.json');
    mkdirSync(dirname(cache), { recursive: true });
    const statuses = ['Killed', 'Survived', 'NoCoverage', 'Timeout', 'Ignored'];
    writeFileSync(cache, JSON.stringify({ files: { 'src/check.ts': { mutants: statuses.map((status, id) => ({ id: String(id), status })) } }, testFiles: {} }));
    run('run', '--retest-survivors', 'checks');
    const kept = JSON.parse(readFileSync(cache, 'utf8')).files['src/check.ts'].mutants.map((m: { status: string }) => m.status);
    expect(kept).toEqual(['Killed', 'Timeout', 'Ignored']);
  });

  it('keeps a floor that only rises, and fails (without recording) a score under it', () => {
    const { run, record, setMutants } = workspace(killed(4));
    run('run', '--record', 'checks');
    expect(record().checks.floor).toBe(100);
    setMutants([...killed(1), { status: 'Survived', line: 1 }]);
    const { code, out } = run('run', '--record', 'checks');
    expect(code).toBe(1);
    expect(out).toContain('score 50% (floor 100%)');
    expect(record().checks.score).toBe(100);
  });

  it('in CI measures only recorded modules changed since, names unrecorded ones, and fails under the floor', () => {
    const { project, run, calls, setMutants } = workspace(killed(4));
    const unrecorded = run('ci');
    expect(unrecorded.code).toBe(0);
    expect(unrecorded.out).toContain('checks: no recorded score yet');
    expect(calls().length).toBe(0);
    run('run', '--record', 'checks');
    const before = calls().length;
    const unchanged = run('ci');
    expect(unchanged.code).toBe(0);
    expect(unchanged.out).toContain('every recorded module is measured');
    expect(calls().length).toBe(before);

    // A test file changes: the module is measured again, and a score under the floor fails.
    writeFileSync(join(project, 'pkg', 'test', 'check.test.ts'), 'it.skip("limit", () => {});\n');
    setMutants([...killed(1), { status: 'Survived', line: 1 }]);
    const changed = run('ci');
    expect(calls().length).toBe(before + 1);
    expect(changed.code).toBe(1);
    expect(changed.out).toContain('1 below their floor');
  });

  it('in CI leaves a changed module whose last measurement outlasts the budget to a run on a quiet machine, and says so', () => {
    const { project, run, calls } = workspace(killed(2));
    run('run', '--record', 'checks');
    const scores = join(project, 'mutation', 'scores.json');
    const recorded = JSON.parse(readFileSync(scores, 'utf8'));
    recorded.checks.seconds = 50 * 60;
    writeFileSync(scores, JSON.stringify(recorded));
    writeFileSync(join(project, 'pkg', 'test', 'check.test.ts'), 'it("limit, again", () => {});\n');
    const before = calls().length;
    const { code, out } = run('ci', '--budget-minutes', '20');
    expect(code).toBe(0);
    expect(calls().length).toBe(before);
    expect(out).toContain('checks: changed, not measured in CI: its last measurement took 50 min, more than the budget of 20 min');
  });

  it('narrows the package vitest config to the tests a module lists, and hashes only those', () => {
    const { project, run, calls, record } = workspace(killed(2), { tests: ['test/check.test.ts'] });
    writeFileSync(join(project, 'pkg', 'test', 'slow.test.ts'), 'it("slow", () => {});\n');
    expect(run('run', '--record', 'checks').code).toBe(0);
    const [call] = calls();
    expect(call.config.vitest.configFile).toBe('vitest.mutation-checks.config.mts');
    expect(call.vitestConfig).toContain("import config from './vitest.config.ts'");
    expect(call.vitestConfig).toContain('include: ["test/check.test.ts"]');
    // The generated config is gone after the run.
    expect(existsSync(join(project, 'pkg', 'vitest.mutation-checks.config.mts'))).toBe(false);
    const hash = record().checks.hash;
    // A test file outside the module's list does not make it stale; one inside does.
    writeFileSync(join(project, 'pkg', 'test', 'slow.test.ts'), 'it("slower", () => {});\n');
    expect(run('ci').out).toContain('every recorded module is measured');
    writeFileSync(join(project, 'pkg', 'test', 'check.test.ts'), 'it("limit!", () => {});\n');
    expect(run('ci').out).toContain('1 changed module(s)');
    expect(record().checks.hash).toBe(hash);
  });

  it('names unknown modules and the known ones', () => {
    const { run } = workspace(killed(1));
    const { code, out } = run('run', 'nope');
    expect(code).toBe(1);
    expect(out).toContain('unknown mutation module(s): nope; known: checks');
  });

  it('says when Stryker itself fails, naming the module', () => {
    const { project, run } = workspace(killed(1));
    writeFileSync(join(project, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'process.exit(3);\n');
    const { code, out } = run('run', 'checks');
    expect(code).toBe(1);
    expect(out).toContain('Stryker failed on module "checks" (exit 3)');
  });
});
