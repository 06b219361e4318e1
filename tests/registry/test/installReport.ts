/**
 * How heavy `npm install @baton/agents zod` is, measured in the project the agents README's install
 * line made: the packages npm installed and their size on disk. Written to
 * `.test-results/install-size.json` at the repository root, which the benchmark report reads.
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface InstallSize {
  command: string;
  packages: number;
  bytes: number;
  /** The ten largest packages, by size on disk. */
  largest: Array<{ name: string; bytes: number }>;
}

function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((total, entry) => total + sizeOf(join(path, entry)), 0);
}

/** Every installed package folder under a node_modules (scoped and nested ones included). */
function packageDirs(modules: string): Array<{ name: string; dir: string }> {
  const found: Array<{ name: string; dir: string }> = [];
  let entries: string[];
  try {
    entries = readdirSync(modules);
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const scoped = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`) : [entry];
    for (const name of scoped) {
      const dir = join(modules, name);
      try {
        JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      found.push({ name, dir });
      found.push(...packageDirs(join(dir, 'node_modules')));
    }
  }
  return found;
}

export function measureInstall(project: string, command: string): InstallSize {
  const packages = packageDirs(join(project, 'node_modules'));
  const sized = packages.map(({ name, dir }) => ({ name, bytes: sizeOf(dir) }));
  return {
    command,
    packages: packages.length,
    bytes: sizeOf(join(project, 'node_modules')),
    largest: sized.sort((a, b) => b.bytes - a.bytes).slice(0, 10),
  };
}

export function writeInstallReport(project: string, installLines: string[][]): InstallSize {
  const size = measureInstall(project, installLines.map((args) => `npm install ${args.join(' ')}`).join(' && '));
  mkdirSync(join(root, '.test-results'), { recursive: true });
  writeFileSync(join(root, '.test-results', 'install-size.json'), `${JSON.stringify(size, null, 2)}\n`);
  return size;
}
