#!/usr/bin/env node
// The two README commands in one place: obtain pinned pnpm without assuming it, install, build,
// then run the demo, the tests or the benchmark. Works on a fresh machine with Node 20+ and npm.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const toolsDir = join(root, '.tools');
const pnpmEntry = join(toolsDir, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');

function ensurePnpm() {
  const installed = existsSync(pnpmEntry)
    ? JSON.parse(readFileSync(join(toolsDir, 'node_modules', 'pnpm', 'package.json'), 'utf8')).version
    : undefined;
  if (installed === pnpmVersion) return;
  mkdirSync(toolsDir, { recursive: true });
  console.error(`[baton] installing pnpm@${pnpmVersion} into .tools/`);
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--prefix', toolsDir, `pnpm@${pnpmVersion}`], {
    stdio: 'inherit',
    cwd: root,
  });
}

// turbo looks pnpm up on PATH (from `packageManager`), so put ours first.
const env = {
  ...process.env,
  PATH: `${join(toolsDir, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
};

function pnpm(...args) {
  const result = spawnSync(process.execPath, [pnpmEntry, ...args], { stdio: 'inherit', cwd: root, env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const task = process.argv[2];
const extra = process.argv.slice(3);
ensurePnpm();
pnpm('install', '--frozen-lockfile', '--prefer-offline');

switch (task) {
  case 'demo':
    pnpm('turbo', 'run', 'build', '--filter=@baton/demo...', '--output-logs=errors-only');
    pnpm('--filter', '@baton/demo', 'start', ...extra);
    break;
  case 'test':
    pnpm('turbo', 'run', 'build', 'typecheck', '--output-logs=errors-only');
    mkdirSync(join(root, '.test-results'), { recursive: true });
    pnpm('exec', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.test-results/vitest.json', ...extra);
    break;
  case 'bench':
    pnpm('turbo', 'run', 'build', '--filter=@baton/bench...', '--output-logs=errors-only');
    pnpm('--filter', '@baton/bench', 'start', ...extra);
    break;
  default:
    console.error(`usage: node scripts/run.mjs demo|test|bench`);
    process.exit(2);
}
