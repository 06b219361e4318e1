#!/usr/bin/env node
// `npm run release`: version the packages from the pending changesets, build them, pack every
// non-private package as `pnpm publish` packs it (`workspace:*` ranges rewritten to the released
// versions), check each tarball, then publish those very tarballs with npm, a few at a time.
//
//   node scripts/release.mjs [--registry <url>] [--tag <dist-tag>] [--only <package>] [--no-version] [--no-build] [--no-tests] [--dry-run]
//
// --only        publish this package and the workspace packages it depends on (repeatable), not all
// --no-version  publish the versions already in the package.json files (no `changeset version`)
// --no-build    publish what is built (the caller has just built and type-checked it, as `npm test` does)
// --no-tests    skip the full test suite (the packing checks still run)
// Provenance is requested when the registry supports it: registry.npmjs.org from a CI that gives
// an OIDC identity (GitHub Actions with `id-token: write`, GitLab with SIGSTORE_ID_TOKEN).
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pnpmEntry = join(root, '.tools', 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
const env = {
  ...process.env,
  PATH: `${join(root, '.tools', 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
};

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const index = argv.indexOf(name);
  if (index === -1) return undefined;
  const value = argv[index + 1];
  if (value === undefined || value.startsWith('--')) fail(`${name} needs a value`);
  return value;
};
const valued = ['--registry', '--tag', '--only'];
const known = new Set(['--registry', '--tag', '--only', '--no-version', '--no-build', '--no-tests', '--dry-run']);
for (const [index, arg] of argv.entries()) {
  if (arg.startsWith('--') && !known.has(arg)) fail(`unknown option ${arg} (known: ${[...known].join(', ')})`);
  if (!arg.startsWith('--') && !valued.includes(argv[index - 1])) fail(`unexpected argument ${arg}`);
}
const registry = option('--registry') ?? env.npm_config_registry ?? 'https://registry.npmjs.org/';
const tag = option('--tag');
const only = argv.flatMap((arg, index) => (arg === '--only' ? [argv[index + 1]] : []));
for (const name of only) if (name === undefined || name.startsWith('--')) fail('--only needs a package name');

function fail(message) {
  console.error(`[release] ${message}`);
  process.exit(1);
}

function step(what, command, args, { quiet = true } = {}) {
  const started = Date.now();
  console.error(`[release] ${what} ...`);
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8', stdio: quiet ? 'pipe' : 'inherit', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    fail(`${what} failed${result.error ? `: ${result.error.message}` : ` (exit ${result.status})`}`);
  }
  console.error(`[release] ${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.stdout ?? '';
}

const pnpm = (what, args, options) => step(what, process.execPath, [pnpmEntry, ...args], options);

if (!existsSync(pnpmEntry)) fail('pnpm is not in .tools/: run `npm test` or `npm run demo` once first (they fetch it).');

/** Non-private workspace packages: the ones a release publishes (with --only, those named and their workspace dependencies). */
function publishable() {
  const all = readdirSync(join(root, 'packages'))
    .map((name) => join(root, 'packages', name))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true);
  if (only.length === 0) return all;
  const byName = new Map(all.map((entry) => [entry.manifest.name, entry]));
  const chosen = new Set();
  const visit = (name) => {
    if (chosen.has(name)) return;
    if (!byName.has(name)) fail(`--only ${name}: no such publishable package (known: ${[...byName.keys()].join(', ')})`);
    chosen.add(name);
    const { dependencies = {}, peerDependencies = {} } = byName.get(name).manifest;
    for (const [dependency, range] of Object.entries({ ...dependencies, ...peerDependencies })) if (String(range).startsWith('workspace:')) visit(dependency);
  };
  only.forEach(visit);
  return all.filter(({ manifest }) => chosen.has(manifest.name));
}

/** Every file an `exports` map (or main/module/types) points at, for a package's tarball to contain. */
function exportTargets(manifest) {
  const targets = new Set();
  const walk = (value) => {
    if (typeof value === 'string') targets.add(value.replace(/^\.\//, ''));
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(manifest.exports);
  for (const key of ['main', 'module', 'types']) if (typeof manifest[key] === 'string') walk(manifest[key]);
  return [...targets].filter((target) => !target.includes('*'));
}

function run(command, args) {
  return new Promise((resolvePromise, reject) => {
    execFile(command, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${[command, ...args].join(' ')}: ${error.message}\n${stdout}${stderr}`)) : resolvePromise(stdout),
    );
  });
}

/** One package's tarball (packed as `pnpm publish` packs it), and what it would give a user that is wrong. */
async function problemsOf({ dir, manifest }, out) {
  const problems = [];
  const destination = join(out, manifest.name.replace('/', '+'));
  mkdirSync(destination);
  const packed = JSON.parse(await run(process.execPath, [pnpmEntry, '--dir', dir, 'pack', '--json', '--pack-destination', destination]));
  const files = new Set(packed.files.map((file) => file.path));
  await run('tar', ['-xzf', packed.filename, '-C', destination]);
  const shipped = JSON.parse(readFileSync(join(destination, 'package', 'package.json'), 'utf8'));
  for (const block of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(shipped[block] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`${manifest.name}: ${block}.${name} is still ${range}`);
    }
  }
  for (const target of exportTargets(shipped)) {
    if (!files.has(target)) problems.push(`${manifest.name}: exports ${target}, which is not in the package (build first?)`);
  }
  if (!files.has('README.md')) problems.push(`${manifest.name}: no README.md in the package`);
  if ([...files].some((file) => file.startsWith('src/') || file.startsWith('test/'))) problems.push(`${manifest.name}: ships src/ or test/`);
  if (shipped.engines?.node === undefined) problems.push(`${manifest.name}: no engines.node`);
  return { problems, tarball: packed.filename };
}

/**
 * Pack every package as `pnpm publish` would (a few at a time) and check what a user would receive.
 * The tarballs checked are the ones published (kept in the returned folder, removed by the caller):
 * nothing is packed again between the check and the publish.
 */
async function checkPackages(packages) {
  const started = Date.now();
  console.error(`[release] packing and checking ${packages.length} packages ...`);
  const out = mkdtempSync(join(tmpdir(), 'baton-release-'));
  const tarballs = new Map();
  try {
    const queue = [...packages];
    const problems = [];
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const packed = await problemsOf(next, out);
        problems.push(...packed.problems);
        tarballs.set(next.manifest.name, packed.tarball);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    if (problems.length > 0) fail(`the packages are not ready to publish:\n  ${problems.join('\n  ')}`);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    fail(`packing failed: ${error.message}`);
  }
  console.error(`[release] packing and checking ${packages.length} packages: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { out, tarballs };
}

function provenanceSupported() {
  const official = /^https:\/\/registry\.npmjs\.org\/?$/.test(registry);
  const identity = env.ACTIONS_ID_TOKEN_REQUEST_URL !== undefined || env.SIGSTORE_ID_TOKEN !== undefined;
  if (!official) console.error(`[release] no provenance: ${registry} is not registry.npmjs.org`);
  else if (!identity) console.error('[release] no provenance: no CI OIDC identity (GitHub Actions id-token or SIGSTORE_ID_TOKEN)');
  return official && identity;
}

if (!flag('--no-version')) {
  pnpm('versioning the packages from .changeset/', ['exec', 'changeset', 'version']);
  pnpm('updating the lockfile', ['install', '--lockfile-only', '--reporter=append-only']);
}
if (!flag('--no-build')) pnpm('building and type-checking every package', ['exec', 'turbo', 'run', 'build', 'typecheck', '--filter=./packages/*', '--output-logs=errors-only']);
const packages = publishable();
const { out, tarballs } = await checkPackages(packages);
try {
  if (!flag('--no-tests')) pnpm('running the test suite', ['exec', 'vitest', 'run', '--reporter=dot']);
  // The checked tarballs, a few at a time: each a package of its own, so the order does not matter.
  const publishArgs = ['--access', 'public', '--registry', registry];
  if (tag !== undefined) publishArgs.push('--tag', tag);
  if (flag('--dry-run')) publishArgs.push('--dry-run');
  if (provenanceSupported()) publishArgs.push('--provenance');
  const started = Date.now();
  console.error(`[release] publishing ${packages.length} packages to ${registry} ...`);
  const queue = packages.map(({ manifest }) => manifest.name);
  const failures = [];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      try {
        await run('npm', ['publish', tarballs.get(name), ...publishArgs]);
        console.error(`[release]   ${name}`);
      } catch (error) {
        failures.push(`${name}: ${error.message}`);
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  rmSync(out, { recursive: true, force: true });
  if (failures.length > 0) fail(`publishing failed:\n  ${failures.join('\n  ')}`);
  console.error(`[release] publishing ${packages.length} packages: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
