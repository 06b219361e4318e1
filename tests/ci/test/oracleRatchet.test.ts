import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'scripts', 'oracle-ratchet.mjs');

type Test = { title: string; status: 'passed' | 'failed' | 'skipped'; describe?: string[]; missingExports?: string[] };

/** A vitest JSON report as the oracle's suite writes it, one file of tests. */
function report(project: string, tests: Test[], file = 'tests/agents-core/run.test.ts') {
  return {
    testResults: [
      {
        name: join(project, '.oracle', 'peer-core', file),
        status: tests.some((t) => t.status === 'failed') ? 'failed' : 'passed',
        assertionResults: tests.map((t) => ({
          ancestorTitles: t.describe ?? ['Runner'],
          title: t.title,
          status: t.status,
          meta: t.missingExports ? { missingExports: t.missingExports } : {},
        })),
      },
    ],
  };
}

/** A project folder with the ratchet script, and optionally a ../shared/compat-oracle whose run.sh writes `results`. */
function workspace(options: { shared: boolean; results?: object; record?: string[]; known?: object }) {
  const base = mkdtempSync(join(tmpdir(), 'oracle-ratchet-'));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const project = join(base, 'project');
  mkdirSync(join(project, 'scripts'), { recursive: true });
  mkdirSync(join(project, 'oracle'), { recursive: true });
  mkdirSync(join(project, '.oracle'), { recursive: true });
  copyFileSync(script, join(project, 'scripts', 'oracle-ratchet.mjs'));
  if (options.record) writeFileSync(join(project, 'oracle', 'core.passing.txt'), `# header\n${options.record.join('\n')}\n`);
  if (options.known) writeFileSync(join(project, 'oracle', 'known-failures.json'), JSON.stringify(options.known));
  if (options.shared) {
    const oracle = join(base, 'shared', 'compat-oracle');
    mkdirSync(oracle, { recursive: true });
    const fixture = join(base, 'fixture.json');
    writeFileSync(fixture, JSON.stringify(options.results ?? { testResults: [] }));
    // Stands in for the real run.sh: records its arguments, leaves the report where the real one does.
    writeFileSync(
      join(oracle, 'run.sh'),
      // Run again for some files (FILES set), it reports fixture-again.json when the test wrote one.
      // The second full run reports fixture-run2.json when the test wrote one.
      `#!/usr/bin/env bash\necho "$1 $2" > "${base}/run-args"\necho x >> "${base}/run-count"\nif [ "$(wc -l < "${base}/run-count")" -eq 2 ] && [ -f "${base}/fixture-run2.json" ]; then cp "${base}/fixture-run2.json" "$2/.oracle/$1-results.json"; elif [ -n "\${FILES:-}" ] && [ -f "${base}/fixture-again.json" ]; then echo "$FILES" > "${base}/again-files"; cp "${base}/fixture-again.json" "$2/.oracle/$1-results.json"; else cp "${fixture}" "$2/.oracle/$1-results.json"; fi\necho "1 passed, 1 failed"\nexit 1\n`,
    );
    chmodSync(join(oracle, 'run.sh'), 0o755);
  }
  const ratchet = (...args: string[]) => {
    const result = spawnSync(process.execPath, [join(project, 'scripts', 'oracle-ratchet.mjs'), ...args], { cwd: project, encoding: 'utf8' });
    return { code: result.status, out: result.stdout + result.stderr };
  };
  return { base, project, ratchet };
}

const id = (title: string, describe = 'Runner') => `tests/agents-core/run.test.ts > ${describe} > ${title}`;

describe('the oracle ratchet', () => {
  it('skips, and succeeds, where ../shared/compat-oracle is absent (a clone outside this workplace)', () => {
    const { ratchet } = workspace({ shared: false });
    const { code, out } = ratchet('check', 'core');
    expect(code).toBe(0);
    expect(out).toContain('skipped');
  });

  it('runs the suite through run.sh with the project folder and passes when every recorded test passes', () => {
    const ws = workspace({ shared: true, record: [id('a')] });
    writeFileSync(join(ws.base, 'fixture.json'), JSON.stringify(report(ws.project, [{ title: 'a', status: 'passed' }, { title: 'b', status: 'failed' }])));
    const { code, out } = ws.ratchet('check', 'core');
    expect(readFileSync(join(ws.base, 'run-args'), 'utf8').trim()).toBe(`core ${ws.project}`);
    expect(code).toBe(0);
    expect(out).toContain('1 pass (record 1), 1 fail');
  });

  it('fails and names the test when a recorded test stops passing', () => {
    const ws = workspace({ shared: true, record: [id('a'), id('b')] });
    writeFileSync(join(ws.base, 'fixture.json'), JSON.stringify(report(ws.project, [{ title: 'a', status: 'passed' }, { title: 'b', status: 'failed' }, { title: 'c', status: 'passed' }])));
    const { code, out } = ws.ratchet('check', 'core');
    expect(code).toBe(1);
    expect(out).toContain(`REGRESSION (passed in the record, failed now): ${id('b')}`);
  });

  it('runs the files of recorded tests that failed once more, and takes a pass then as flakiness, not a regression', () => {
    const ws = workspace({ shared: true, record: [id('a'), id('b')] });
    writeFileSync(join(ws.base, 'fixture.json'), JSON.stringify(report(ws.project, [{ title: 'a', status: 'passed' }, { title: 'b', status: 'failed' }])));
    writeFileSync(join(ws.base, 'fixture-again.json'), JSON.stringify(report(ws.project, [{ title: 'a', status: 'passed' }, { title: 'b', status: 'passed' }])));
    const { code, out } = ws.ratchet('check', 'core');
    expect(readFileSync(join(ws.base, 'again-files'), 'utf8').trim()).toBe('tests/agents-core/run.test.ts');
    expect(out).toContain(`flaky (failed, then passed when run again): ${id('b')}`);
    expect(code).toBe(0);
  });

  it('still fails when a recorded test fails again on the second run', () => {
    const ws = workspace({ shared: true, record: [id('b')] });
    const failing = JSON.stringify(report(ws.project, [{ title: 'b', status: 'failed' }]));
    writeFileSync(join(ws.base, 'fixture.json'), failing);
    writeFileSync(join(ws.base, 'fixture-again.json'), failing);
    const { code, out } = ws.ratchet('check', 'core');
    expect(code).toBe(1);
    expect(out).toContain(`REGRESSION (passed in the record, failed now): ${id('b')}`);
  });

  it('fails when a recorded test disappears from the results (a file that no longer loads)', () => {
    const ws = workspace({ shared: true, record: [id('a')] });
    writeFileSync(join(ws.base, 'fixture.json'), JSON.stringify(report(ws.project, [{ title: 'other', status: 'passed' }])));
    const { code, out } = ws.ratchet('check', 'core');
    expect(code).toBe(1);
    expect(out).toContain(`missing now): ${id('a')}`);
  });

  it('counts a pass that only came from a missing export throwing as a failure, as the suite does', () => {
    const ws = workspace({ shared: true, record: [id('a')] });
    writeFileSync(join(ws.base, 'fixture.json'), JSON.stringify(report(ws.project, [{ title: 'a', status: 'passed', missingExports: ['shellTool'] }])));
    const { code, out } = ws.ratchet('check', 'core');
    expect(code).toBe(1);
    expect(out).toContain('REGRESSION');
  });

  it('raises the record on update, tells repeated names apart, and drops listed failures that pass now', () => {
    const ws = workspace({
      shared: true,
      record: [id('a')],
      known: { core: { [id('b')]: 'deliberate difference', [id('z')]: 'still fails' } },
    });
    writeFileSync(
      join(ws.base, 'fixture.json'),
      JSON.stringify(report(ws.project, [{ title: 'a', status: 'passed' }, { title: 'b', status: 'passed' }, { title: 'b', status: 'passed' }, { title: 'z', status: 'failed' }])),
    );
    const { code } = ws.ratchet('update', 'core');
    expect(code).toBe(0);
    const record = readFileSync(join(ws.project, 'oracle', 'core.passing.txt'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(record).toEqual([id('a'), id('b'), `${id('b')} #2`]);
    expect(JSON.parse(readFileSync(join(ws.project, 'oracle', 'known-failures.json'), 'utf8'))).toEqual({ core: { [id('z')]: 'still fails' } });
  });

  it('with --runs 2 records only what passed in both runs, and leaves a recorded test that passed once out as flaky', () => {
    const ws = workspace({ shared: true, record: [id('a')] });
    writeFileSync(join(ws.base, 'fixture.json'), JSON.stringify(report(ws.project, [{ title: 'a', status: 'passed' }, { title: 'b', status: 'passed' }, { title: 'c', status: 'passed' }])));
    writeFileSync(join(ws.base, 'fixture-run2.json'), JSON.stringify(report(ws.project, [{ title: 'a', status: 'failed' }, { title: 'b', status: 'passed' }, { title: 'c', status: 'failed' }])));
    const { code, out } = ws.ratchet('update', 'core', '--runs', '2');
    expect(code).toBe(0);
    expect(out).toContain(`flaky, left out of the record: ${id('a')}`);
    const record = readFileSync(join(ws.project, 'oracle', 'core.passing.txt'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(record).toEqual([id('b')]);
  });

  it('refuses to rewrite the record while a recorded test fails', () => {
    const ws = workspace({ shared: true, record: [id('a')] });
    writeFileSync(join(ws.base, 'fixture.json'), JSON.stringify(report(ws.project, [{ title: 'a', status: 'failed' }, { title: 'b', status: 'passed' }])));
    const { code, out } = ws.ratchet('update', 'core');
    expect(code).toBe(1);
    expect(out).toContain('not raising the record');
    expect(readFileSync(join(ws.project, 'oracle', 'core.passing.txt'), 'utf8')).toContain(id('a'));
  });

  it('tells apart failures explained, listed as still to build, and not listed at all', () => {
    const known = { core: { [id('b')]: 'reads a reference internal', [id('d')]: 'to build (issue 24): session rewrites' } };
    const ws = workspace({ shared: true, record: [], known });
    const tests: Test[] = ['b', 'c', 'd'].map((title) => ({ title, status: 'failed' }));
    writeFileSync(join(ws.base, 'fixture.json'), JSON.stringify(report(ws.project, tests)));
    const { out } = ws.ratchet('check', 'core');
    expect(out).toContain('3 fail (listed with a reason in oracle/known-failures.json: 1 explained, 1 to build; 1 not listed)');
  });

  it('answers an unknown mode or suite with a usage error naming it', () => {
    const ws = workspace({ shared: true });
    expect(ws.ratchet('raise').out).toContain('got "raise"');
    expect(ws.ratchet('check', 'python')).toMatchObject({ code: 2 });
    expect(existsSync(join(ws.project, '.oracle', 'python-results.json'))).toBe(false);
  });
});
