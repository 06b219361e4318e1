#!/usr/bin/env node
// Mutation testing of the modules that carry the READMEs' promises (mutation/modules.json), with
// StrykerJS and each package's own vitest suite.
//
//   node scripts/mutation.mjs run [name ...]      measure (all modules when none named); prints scores
//   node scripts/mutation.mjs run --record [...]  measure and record score, floor and source hash
//   node scripts/mutation.mjs run --fresh [...]   measure every mutant again (no incremental cache)
//   node scripts/mutation.mjs run --retest-survivors [...]   measure the last run's survivors again
//        (and its mutants without coverage), keeping the other results of the incremental cache
//   node scripts/mutation.mjs rescore [--record] name ...
//        score the last run's report again with mutation/equivalent.json as it is now (after listing
//        equivalent mutants), without running Stryker; refused when sources or tests changed since
//   node scripts/mutation.mjs ci [--budget-minutes N]
//        measure only the modules whose sources or tests changed since their score was recorded,
//        smallest first, within the budget; fail when a score falls below its floor
//   node scripts/mutation.mjs report              the record, as a table
//
// The record (mutation/scores.json) keeps per module the score, a floor that only rises, and the
// hash of what was measured. Surviving mutants judged equivalent (no test could tell them apart)
// are listed with the reason in mutation/equivalent.json and do not count against the score; an
// entry that gives its line's text (`code`) still matches after edits elsewhere move the line.
// Survivors of the last run are written to mutation/survivors/<module>.txt for review.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const modulesFile = join(root, 'mutation/modules.json');
const recordFile = join(root, 'mutation/scores.json');
const equivalentFile = join(root, 'mutation/equivalent.json');
const survivorsDir = join(root, 'mutation/survivors');
const workDir = join(root, '.mutation');

const readJson = (file, fallback) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : fallback);
const modules = readJson(modulesFile, { modules: [] }).modules;

/** A glob of `*` and `**` as a regular expression over '/'-separated relative paths. */
function globToRegExp(glob) {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      out += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else out += /[.+?^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${out}$`);
}

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

function mutatedFiles(mod) {
  const pkgDir = join(root, mod.package);
  const patterns = mod.mutate.map(globToRegExp);
  return filesUnder(join(pkgDir, 'src'))
    .map((f) => relative(pkgDir, f).split(sep).join('/'))
    .filter((f) => patterns.some((p) => p.test(f)))
    .sort();
}

/** The package's test files a module is measured with: all of them, or those `tests` names (and their helpers). */
function testFiles(mod) {
  const pkgDir = join(root, mod.package);
  const all = filesUnder(join(pkgDir, 'test')).map((f) => relative(pkgDir, f).split(sep).join('/')).sort();
  if (!mod.tests) return all;
  const patterns = mod.tests.map(globToRegExp);
  return all.filter((f) => !f.endsWith('.test.ts') || patterns.some((p) => p.test(f)));
}

/** The vitest config Stryker uses: the package's own, narrowed to the module's `tests` when it lists some. */
function vitestConfigFor(mod) {
  const pkgDir = join(root, mod.package);
  const own = ['vitest.config.ts', 'vitest.config.mts', 'vitest.config.js'].find((f) => existsSync(join(pkgDir, f)));
  if (!mod.tests) return { file: own, cleanup: () => {} };
  if (!own) throw new Error(`module "${mod.name}" lists tests, but ${mod.package} has no vitest config to narrow`);
  const file = `vitest.mutation-${mod.name}.config.mts`;
  writeFileSync(
    join(pkgDir, file),
    `// Written by scripts/mutation.mjs for one run: the package's config, with only the module's tests.\n` +
      `import config from './${own}';\n` +
      `export default { ...config, test: { ...config.test, include: ${JSON.stringify(mod.tests)} } };\n`,
  );
  return { file, cleanup: () => rmSync(join(pkgDir, file), { force: true }) };
}

/** What a score depends on: the mutated sources, the package's tests, and the module's definition. */
function moduleHash(mod) {
  const pkgDir = join(root, mod.package);
  const hash = createHash('sha256').update(JSON.stringify(mod));
  for (const file of [...mutatedFiles(mod), ...testFiles(mod)]) {
    hash.update(file).update('\0').update(readFileSync(join(pkgDir, file))).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function strykerConfig(mod, vitestConfig) {
  return {
    $schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    packageManager: 'pnpm',
    testRunner: 'vitest',
    vitest: { configFile: vitestConfig, related: false },
    plugins: [require.resolve('@stryker-mutator/vitest-runner')],
    mutate: mod.mutate,
    coverageAnalysis: 'perTest',
    reporters: ['json', 'progress'],
    jsonReporter: { fileName: join(workDir, `${mod.name}.json`) },
    incremental: true,
    incrementalFile: join(workDir, 'incremental', `${mod.name}.json`),
    tempDirName: join(workDir, 'tmp', mod.name),
    cleanTempDir: 'always',
    concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
    // A vitest runner kept for hundreds of mutants was seen to stop failing on mutants it kills when
    // fresh (tracing-redaction: from about the 400th mutant on, nearly every mutant "survived",
    // `message: ''` of a span error asserted by toEqual included); a new runner every 100 mutants.
    maxTestRunnerReuse: Number(process.env.MUTATION_RUNNER_REUSE ?? 100),
    timeoutMS: 15_000,
    timeoutFactor: 2,
    disableTypeChecks: true,
    ignoreStatic: true,
    thresholds: { high: 90, low: 70, break: null },
  };
}

/** One module's score from Stryker's JSON report, with listed equivalent mutants set aside. */
function scoreOf(mod, report, equivalents) {
  const listed = equivalents[mod.name] ?? [];
  // `column` is optional: without it an entry covers every such mutant on the line. With `code`
  // (the line's text), the entry follows its line when edits above it move it: it matches a mutant
  // on any line of the file that reads exactly so, and `line` only says where it was listed.
  const isListed = (file, m, lines) =>
    listed.some(
      (e) =>
        e.file === file &&
        (e.code !== undefined ? lines[m.location.start.line - 1] === e.code : e.line === m.location.start.line) &&
        (e.column === undefined || e.column === m.location.start.column) &&
        e.mutator === m.mutatorName &&
        (e.replacement === undefined || e.replacement === m.replacement),
    );
  const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, equivalent: 0, ignored: 0, errors: 0 };
  const survivors = [];
  for (const [file, result] of Object.entries(report.files)) {
    const rel = relative(join(root, mod.package), resolve(join(root, mod.package), file)).split(sep).join('/');
    const lines = result.source.split('\n');
    for (const m of result.mutants) {
      if (m.status === 'Killed') counts.killed++;
      else if (m.status === 'Timeout') counts.timeout++;
      else if (m.status === 'Survived' || m.status === 'NoCoverage') {
        if (isListed(rel, m, lines)) counts.equivalent++;
        else {
          counts[m.status === 'Survived' ? 'survived' : 'noCoverage']++;
          const line = m.location.start.line;
          survivors.push(`${rel}:${line}:${m.location.start.column} ${m.status} ${m.mutatorName} -> ${JSON.stringify(m.replacement ?? '')}\n    ${(lines[line - 1] ?? '').trim()}`);
        }
      } else if (m.status === 'Ignored') counts.ignored++;
      else counts.errors++;
    }
  }
  const detected = counts.killed + counts.timeout;
  const valid = detected + counts.survived + counts.noCoverage;
  const score = valid === 0 ? 100 : Math.floor((detected / valid) * 1000) / 10;
  return { score, counts, survivors };
}

/** What the last run of a module measured: its hash then, and how long it took (read by `rescore`). */
const measuredFile = (mod) => join(workDir, `${mod.name}.measured.json`);

function runStryker(mod, { fresh = false, retestSurvivors = false } = {}) {
  mkdirSync(join(workDir, 'incremental'), { recursive: true });
  // The incremental cache keeps a survivor as long as its code and covering tests are unchanged,
  // also one a worn-out runner let through: --fresh measures every mutant again,
  // --retest-survivors only those that were not detected.
  const incremental = join(workDir, 'incremental', `${mod.name}.json`);
  if (fresh) rmSync(incremental, { force: true });
  else if (retestSurvivors && existsSync(incremental)) {
    const cache = JSON.parse(readFileSync(incremental, 'utf8'));
    for (const file of Object.values(cache.files ?? {})) {
      file.mutants = file.mutants.filter((m) => m.status !== 'Survived' && m.status !== 'NoCoverage');
    }
    writeFileSync(incremental, JSON.stringify(cache));
  }
  const configFile = join(workDir, `${mod.name}.stryker.json`);
  const vitestConfig = vitestConfigFor(mod);
  writeFileSync(configFile, JSON.stringify(strykerConfig(mod, vitestConfig.file), null, 2));
  const started = Date.now();
  const bin = join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js');
  let result;
  try {
    result = spawnSync(process.execPath, [bin, 'run', configFile], { cwd: join(root, mod.package), stdio: ['ignore', 'inherit', 'inherit'] });
  } finally {
    vitestConfig.cleanup();
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  if (result.status !== 0) throw new Error(`Stryker failed on module "${mod.name}" (exit ${result.status}); its output is above`);
  return { report: readJson(join(workDir, `${mod.name}.json`)), seconds };
}

function measure(mod, record, { write, fresh = false, retestSurvivors = false }) {
  const hash = moduleHash(mod);
  const { report, seconds } = runStryker(mod, { fresh, retestSurvivors });
  writeFileSync(measuredFile(mod), JSON.stringify({ hash, seconds }));
  return scoreAndRecord(mod, record, { write, report, hash, seconds });
}

/** Scores a report with the equivalent mutants listed now; writes the survivors; records when asked and not under the floor. */
function scoreAndRecord(mod, record, { write, report, hash, seconds }) {
  const equivalents = readJson(equivalentFile, {});
  const { score, counts, survivors } = scoreOf(mod, report, equivalents);
  const previous = record[mod.name];
  const floor = previous?.floor ?? 0;
  const ok = score >= floor;
  console.log(`[mutation] ${mod.name}: score ${score}% (floor ${floor}%) killed ${counts.killed}, timeout ${counts.timeout}, survived ${counts.survived}, no coverage ${counts.noCoverage}, equivalent ${counts.equivalent} — ${seconds} s`);
  mkdirSync(survivorsDir, { recursive: true });
  writeFileSync(join(survivorsDir, `${mod.name}.txt`), survivors.length ? `${survivors.join('\n')}\n` : '');
  if (write && ok) {
    // `seconds` keeps the longest run seen: CI's clean checkout has no incremental cache.
    record[mod.name] = { score, floor: Math.max(floor, Math.floor(score)), hash, counts, seconds: Math.max(previous?.seconds ?? 0, seconds) };
  }
  return { ok, score, floor, seconds };
}

function select(names) {
  if (names.length === 0) return modules;
  const unknown = names.filter((n) => !modules.some((m) => m.name === n));
  if (unknown.length) throw new Error(`unknown mutation module(s): ${unknown.join(', ')}; known: ${modules.map((m) => m.name).join(', ')}`);
  return modules.filter((m) => names.includes(m.name));
}

/** Writes the modules measured in this run over the record as it is on disk now (others may have recorded meanwhile). */
function saveRecord(record, measured) {
  const current = { ...readJson(recordFile, {}) };
  for (const name of measured) if (record[name]) current[name] = record[name];
  const sorted = Object.fromEntries(Object.keys(current).sort().map((k) => [k, current[k]]));
  writeFileSync(recordFile, `${JSON.stringify(sorted, null, 2)}\n`);
}

function main(argv) {
  const [command = 'report', ...rest] = argv;
  const flags = rest.filter((a) => a.startsWith('--'));
  const names = rest.filter((a, i) => !a.startsWith('--') && !rest[i - 1]?.startsWith('--budget'));
  const record = readJson(recordFile, {});
  if (command === 'report') {
    for (const mod of modules) {
      const r = record[mod.name];
      const state = !r ? 'not measured' : r.hash === moduleHash(mod) ? 'current' : 'changed since measured';
      console.log(`${mod.name.padEnd(22)} ${r ? `${r.score}% (floor ${r.floor}%)` : '-'.padEnd(18)} ${state}`);
    }
    return 0;
  }
  if (command === 'run') {
    const write = flags.includes('--record');
    const fresh = flags.includes('--fresh');
    const retestSurvivors = flags.includes('--retest-survivors');
    let failed = 0;
    for (const mod of select(names)) {
      const { ok } = measure(mod, record, { write, fresh, retestSurvivors });
      if (!ok) failed++;
      if (write) saveRecord(record, [mod.name]);
    }
    return failed ? 1 : 0;
  }
  if (command === 'rescore') {
    if (names.length === 0) throw new Error('rescore needs the name of a module measured before');
    const write = flags.includes('--record');
    let failed = 0;
    for (const mod of select(names)) {
      const measured = readJson(measuredFile(mod), undefined);
      const report = readJson(join(workDir, `${mod.name}.json`), undefined);
      if (!measured || !report) throw new Error(`module "${mod.name}" has no report of a run here to score again; run: node scripts/mutation.mjs run ${mod.name}`);
      if (measured.hash !== moduleHash(mod)) {
        throw new Error(`module "${mod.name}" changed (sources, tests or definition) since its last run; measure it again: node scripts/mutation.mjs run ${mod.name}`);
      }
      const { ok } = scoreAndRecord(mod, record, { write, report, hash: measured.hash, seconds: measured.seconds });
      if (!ok) failed++;
      if (write) saveRecord(record, [mod.name]);
    }
    return failed ? 1 : 0;
  }
  if (command === 'ci') {
    const budgetIndex = rest.indexOf('--budget-minutes');
    const budgetSeconds = (budgetIndex >= 0 ? Number(rest[budgetIndex + 1]) : 20) * 60;
    // A module with no recorded score has no floor to hold: it is named, and measured by
    // `npm run mutation -- --record <name>` on a quiet machine rather than inside CI's budget.
    for (const m of modules.filter((m) => !record[m.name])) {
      console.log(`[mutation] ${m.name}: no recorded score yet (node scripts/mutation.mjs run --record ${m.name})`);
    }
    const changed = modules
      .filter((m) => record[m.name] && record[m.name].hash !== moduleHash(m))
      .sort((a, b) => record[a.name].seconds - record[b.name].seconds);
    if (changed.length === 0) {
      console.log('[mutation] every recorded module is measured at its current sources and tests');
      return 0;
    }
    let spent = 0;
    let failed = 0;
    for (const mod of changed) {
      const estimate = record[mod.name].seconds;
      // A module whose last measurement alone took longer than the budget would push CI past its
      // time limit (and then nothing lands): it is named, to be measured with --record on a quiet machine.
      if (estimate > budgetSeconds) {
        console.log(
          `[mutation] ${mod.name}: changed, not measured in CI: its last measurement took ${Math.round(estimate / 60)} min, more than the budget of ${budgetSeconds / 60} min; run npm run mutation -- --record ${mod.name}`,
        );
        continue;
      }
      if (spent + estimate > budgetSeconds) {
        console.log(`[mutation] ${mod.name}: changed, not measured in this run (budget of ${budgetSeconds / 60} min spent); run npm run mutation -- ${mod.name}`);
        continue;
      }
      const { ok, seconds } = measure(mod, record, { write: false });
      spent += seconds;
      if (!ok) failed++;
    }
    console.log(`[mutation] ${changed.length} changed module(s), ${failed} below their floor`);
    return failed ? 1 : 0;
  }
  console.error(`unknown command "${command}"; use run, rescore, ci or report`);
  return 2;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error(`[mutation] ${error.message}`);
  process.exitCode = 1;
}
