#!/usr/bin/env node
// The compatibility oracle's ratchet: runs the reference's own unit tests (../shared/compat-oracle,
// outside this repository) against the built packages and compares the result with the record in
// oracle/: every recorded passing test must still pass, and the pass count may only go up.
//
//   node scripts/oracle-ratchet.mjs check [core|aisdk ...]    # CI: run, compare, exit 1 on a regression
//   node scripts/oracle-ratchet.mjs update [core|aisdk ...]   # run, then raise the record to what passes now
//   node scripts/oracle-ratchet.mjs report [core|aisdk ...]   # compare the last results without running
//   --no-run                                                   # check/update: use .oracle/<suite>-results.json as it is
//   --runs N                                                   # update: run N times, record what passed every time
//
// `check` runs the files of recorded tests that failed once more: a test that passes then is
// reported as flaky, not as a regression (the suites hold a few timing-sensitive tests, and the
// record must not make CI fail on a loaded machine).
//
// Without ../shared/compat-oracle (a user's clone) it prints that it skipped and exits 0.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const oracleDir = join(root, '..', 'shared', 'compat-oracle');
const recordDir = join(root, 'oracle');
const args = process.argv.slice(2);
const noRun = args.includes('--no-run');
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 1;
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`oracle: --runs needs a whole number of at least 1 (got "${args[runsAt + 1]}")`);
  process.exit(2);
}
const [mode = 'check', ...suiteArgs] = args.filter((arg, i) => arg !== '--no-run' && (runsAt < 0 || (i !== runsAt && i !== runsAt + 1)));
const suites = suiteArgs.length > 0 ? suiteArgs : ['core', 'aisdk'];

if (!['check', 'update', 'report'].includes(mode)) {
  console.error(`usage: node scripts/oracle-ratchet.mjs check|update|report [core|aisdk ...] (got "${mode}")`);
  process.exit(2);
}
for (const suite of suites) {
  if (!['core', 'aisdk'].includes(suite)) {
    console.error(`oracle: unknown suite "${suite}" (known: core, aisdk)`);
    process.exit(2);
  }
}
if (!existsSync(join(oracleDir, 'run.sh'))) {
  console.log('oracle: ../shared/compat-oracle is not here; skipped');
  process.exit(0);
}

/** One id per test: file, describe blocks and title; a repeated name gets " #2", " #3", ... */
function outcomes(resultsFile) {
  const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const seen = new Map();
  const byId = new Map();
  for (const file of report.testResults) {
    const path = relative(join(dirname(resultsFile), file.name.includes('peer-aisdk') ? 'peer-aisdk' : 'peer-core'), file.name);
    if (file.assertionResults.length === 0 && file.status === 'failed') {
      byId.set(`${path} (file failed to load)`, 'failed');
      continue;
    }
    for (const test of file.assertionResults) {
      const base = [path, ...test.ancestorTitles, test.title].join(' > ');
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      // As the suite's own summary does: a pass that only came from a missing export's stub throwing is a failure.
      const vacuous = test.status === 'passed' && test.meta?.missingExports?.length > 0;
      byId.set(count === 1 ? base : `${base} #${count}`, vacuous ? 'failed' : test.status);
    }
  }
  return byId;
}

function readLines(file) {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line !== '' && !line.startsWith('#')) : [];
}

function knownFailures() {
  const file = join(recordDir, 'known-failures.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/** Runs the suite (or some of its files) with run.sh; its results land in .oracle/<suite>-results.json. */
function runSuite(suite, files) {
  const env = files === undefined ? process.env : { ...process.env, FILES: files.join(' ') };
  const run = spawnSync('bash', [join(oracleDir, 'run.sh'), suite, root], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  console.log(`oracle ${suite}${files === undefined ? '' : ` (again: ${files.length} files)`}: ${run.stdout.trim().split('\n').pop()}`);
}

const fileOf = (id) => id.split(' > ')[0].replace(/ \(file failed to load\)$/, '');

let regressions = 0;
for (const suite of suites) {
  const resultsFile = join(root, '.oracle', `${suite}-results.json`);
  const recordFile = join(recordDir, `${suite}.passing.txt`);
  const recorded = readLines(recordFile);
  let now;
  let passedEveryRun;
  for (let round = 0; round < (mode === 'update' && !noRun ? runs : 1); round++) {
    if (mode !== 'report' && !noRun) runSuite(suite);
    if (!existsSync(resultsFile)) break;
    const results = outcomes(resultsFile);
    now ??= results;
    const passedNow = new Set([...results].filter(([, status]) => status === 'passed').map(([id]) => id));
    passedEveryRun = passedEveryRun === undefined ? passedNow : new Set([...passedEveryRun].filter((id) => passedNow.has(id)));
  }
  if (now === undefined) {
    console.log(`oracle ${suite}: no results at ${relative(root, resultsFile)} (the suite did not run)`);
    regressions++;
    continue;
  }
  const passing = [...passedEveryRun];
  const failing = [...now].filter(([id, status]) => status === 'failed' || (status === 'passed' && !passedEveryRun.has(id))).map(([id]) => id);
  let lost = recorded.filter((id) => now.get(id) !== 'passed');
  if (mode === 'check' && !noRun && lost.length > 0) {
    // Once more, only the files of the tests that failed: a pass now is flakiness, not a regression.
    copyFileSync(resultsFile, join(root, '.oracle', `${suite}-results.full.json`));
    runSuite(suite, [...new Set(lost.map(fileOf))]);
    const again = existsSync(resultsFile) ? outcomes(resultsFile) : new Map();
    const flaky = lost.filter((id) => again.get(id) === 'passed');
    for (const id of flaky) console.log(`  flaky (failed, then passed when run again): ${id}`);
    lost = lost.filter((id) => again.get(id) !== 'passed');
    copyFileSync(join(root, '.oracle', `${suite}-results.full.json`), resultsFile);
  }
  const gained = passing.filter((id) => !recorded.includes(id));
  const known = knownFailures()[suite] ?? {};
  const unexplained = failing.filter((id) => !(id in known));
  // Listed reasons that start "to build" name behaviour still missing; the others say why a test
  // cannot pass on Baton (a reference internal, a deliberate difference, another issue's feature).
  const toBuild = failing.filter((id) => typeof known[id] === 'string' && known[id].startsWith('to build'));

  console.log(
    `oracle ${suite}: ${passing.length} pass (record ${recorded.length}), ${failing.length} fail ` +
      `(listed with a reason in oracle/known-failures.json: ${failing.length - unexplained.length - toBuild.length} explained, ${toBuild.length} to build; ${unexplained.length} not listed)`,
  );
  for (const id of lost) console.log(`  REGRESSION (passed in the record, ${now.get(id) ?? 'missing'} now): ${id}`);
  if (gained.length > 0 && mode !== 'update') {
    console.log(`  ${gained.length} pass now that the record does not hold: raise it with \`node scripts/oracle-ratchet.mjs update ${suite}\``);
  }

  if (mode === 'update') {
    // A recorded test that passed in some runs only is flaky: it leaves the record (said so); one
    // that failed every time blocks the update.
    const everFailed = recorded.filter((id) => !passedEveryRun.has(id));
    const neverPassed = lost;
    for (const id of everFailed.filter((id) => !neverPassed.includes(id))) console.log(`  flaky, left out of the record: ${id}`);
    if (neverPassed.length > 0) {
      console.log(`oracle ${suite}: not raising the record while ${neverPassed.length} recorded tests fail`);
      regressions++;
      continue;
    }
    const header = `# ${suite}: tests of ../shared/compat-oracle that pass on Baton; CI fails if one of them stops passing.\n# Raised by \`node scripts/oracle-ratchet.mjs update ${suite}\` after a full build.\n`;
    writeFileSync(recordFile, header + [...passing].sort().join('\n') + '\n');
    // A listed failure that passes now leaves the list: the list holds only what fails today.
    const list = knownFailures();
    const stale = Object.keys(known).filter((id) => passedEveryRun.has(id));
    if (stale.length > 0) {
      for (const id of stale) delete list[suite][id];
      writeFileSync(join(recordDir, 'known-failures.json'), JSON.stringify(list, null, 1) + '\n');
      console.log(`oracle ${suite}: ${stale.length} listed failures pass now and left oracle/known-failures.json`);
    }
    console.log(`oracle ${suite}: record raised ${recorded.length} -> ${passing.length}`);
  } else if (lost.length > 0) {
    regressions++;
  }
}
process.exit(regressions > 0 ? 1 : 0);
