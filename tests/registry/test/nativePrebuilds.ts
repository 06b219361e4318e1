/**
 * Prebuilt native modules for the installs, as a user's npm gets them. `better-sqlite3` (which the
 * hitl-state and sessions READMEs install) runs `prebuild-install || node-gyp rebuild`: a user's
 * machine downloads a prebuilt binary from the project's GitHub releases, which the test does not
 * reach, so every install would compile SQLite from source instead (minutes each on a busy machine).
 *
 * prebuild-install first looks in a local prebuilds folder (`npm_config_<package>_local_prebuilds`)
 * for the very archive it would download. The workspace has compiled the same package for the
 * running Node (its own install); packed as that archive, it is what the download would have given.
 * A version the workspace does not have is not offered, and is compiled as before.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Native packages the READMEs install, and the binary each builds (`build/Release/<name>.node`). */
const NATIVE: Record<string, string> = { 'better-sqlite3': 'better_sqlite3' };

/** prebuild-install's environment variable for a package's local prebuilds folder. */
export function localPrebuildsVariable(name: string): string {
  return `npm_config_${name.replace(/[^a-zA-Z0-9]/g, '_').replace(/^_/, '')}_local_prebuilds`;
}

/**
 * Packs each native package the workspace has built for this Node into `folder`, named as
 * prebuild-install names its download (`<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`),
 * and returns the environment that points prebuild-install at it.
 */
export function workspacePrebuilds(folder: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const store = join(root, 'node_modules', '.pnpm');
  if (!existsSync(store)) return env;
  for (const [name, binary] of Object.entries(NATIVE)) {
    for (const entry of readdirSync(store).filter((dir) => dir.startsWith(`${name}@`))) {
      const packageDir = join(store, entry, 'node_modules', name);
      if (!existsSync(join(packageDir, 'build', 'Release', `${binary}.node`))) continue;
      const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
      mkdirSync(folder, { recursive: true });
      const archive = join(folder, `${name}-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
      execFileSync('tar', ['-czf', archive, '-C', packageDir, `build/Release/${binary}.node`]);
      env[localPrebuildsVariable(name)] = folder;
    }
  }
  return env;
}
