#!/usr/bin/env node
// The two README commands in one place: obtain pinned pnpm without assuming it, install, build,
// then run the demo, the tests or the benchmark. Works on a fresh machine with Node 20+ and npm.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quietly as quietlyIn } from './internal/quietly.mjs';

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
  quietly(`fetching pnpm@${pnpmVersion} into .tools/`, 'npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', toolsDir, `pnpm@${pnpmVersion}`]);
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

// Install and build steps say one line each; their own output is shown only when they fail.
const quietly = (what, command, args) => quietlyIn(what, command, args, { cwd: root, env });
const quietPnpm = (what, ...args) => quietly(what, process.execPath, [pnpmEntry, ...args]);

const tasks = ['demo', 'chat', 'test', 'bench', 'docs'];
const task = process.argv[2];
const extra = process.argv.slice(3);
if (!tasks.includes(task)) {
  console.error(`usage: node scripts/run.mjs ${tasks.join('|')}${task === undefined ? '' : ` (not ${JSON.stringify(task)})`}`);
  process.exit(2);
}
ensurePnpm();
quietPnpm('installing dependencies', 'install', '--frozen-lockfile', '--prefer-offline', '--reporter=append-only');

switch (task) {
  case 'demo':
    quietPnpm('building the demo', 'turbo', 'run', 'build', '--filter=@baton/demo...', '--output-logs=errors-only');
    pnpm('--filter', '@baton/demo', 'start', ...extra);
    break;
  case 'chat':
    quietPnpm('building the chat app', 'turbo', 'run', 'build', '--filter=@baton/chat...', '--output-logs=errors-only');
    pnpm('--filter', '@baton/chat', 'start', ...extra);
    break;
  case 'test':
    quietPnpm('building and type-checking every package', 'turbo', 'run', 'build', 'typecheck', '--output-logs=errors-only');
    mkdirSync(join(root, '.test-results'), { recursive: true });
    pnpm('exec', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.test-results/vitest.json', ...extra);
    break;
  case 'bench':
    quietPnpm('building the benchmark', 'turbo', 'run', 'build', '--filter=@baton/bench...', '--output-logs=errors-only');
    pnpm('--filter', '@baton/bench', 'start', ...extra);
    break;
  case 'docs':
    quietPnpm('building the documentation site', 'turbo', 'run', 'build', '--filter=@baton/docs...', '--output-logs=errors-only');
    console.error('[baton] the site is at http://localhost:4173/ (Ctrl-C stops it)');
    pnpm('--filter', '@baton/docs', 'preview', ...extra);
    break;
}
