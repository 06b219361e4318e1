// `build`: the API reference (TypeDoc → api/), then the site (VitePress → .vitepress/dist).
// VitePress fails on a dead link; `typecheck` (tsc over samples/) fails on a broken sample.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = performance.now();

function node(...args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

node(join(root, 'scripts', 'api.mjs'));
const siteStarted = performance.now();
node(join(root, 'node_modules', 'vitepress', 'bin', 'vitepress.js'), 'build');
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1);
console.log(`[docs] site built in ${seconds(siteStarted)} s; whole build ${seconds(started)} s`);
