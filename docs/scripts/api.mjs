// Generates the API reference (api/, Markdown for VitePress) from the packages' sources with TypeDoc.
// Warnings (a referenced type that is not exported, ...) are printed, not fatal; errors fail.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');
rmSync(join(root, 'api'), { recursive: true, force: true });
const started = performance.now();
const result = spawnSync(process.execPath, [typedoc, '--options', 'typedoc.json'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
console.log(`[docs] API reference generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
