/**
 * How heavy the README's install line is for a user: `npm install @baton/agents zod` in an empty
 * project, from a throwaway local registry the packages were just released to (tests/registry's
 * Verdaccio and `npm run release`), beside `npm install @openai/agents zod` from the npm registry.
 * Packages installed and their size on disk; a report, it asserts nothing.
 *
 * Run alone: `pnpm --filter @baton/bench install-size` (the packages built; `-- --json` prints the detail);
 * it writes `apps/bench/results/install-size.json`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startLocalRegistry } from '../../../../tests/registry/test/localRegistry.js';
import { measureInstall, type InstallSize } from '../../../../tests/registry/test/installReport.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../../', import.meta.url));

export interface InstallSizeReport {
  baton: InstallSize;
  reference: InstallSize;
  /** The reference's version, as the benchmark pins it. */
  referenceVersion: string;
}

/** A user's shell: no pnpm / npm settings of the monorepo, no NODE_PATH. */
function userEnv(npmrc: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(pnpm_|npm_|NODE_PATH$|NODE_OPTIONS$)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, npm_config_userconfig: npmrc, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

async function installInto(folder: string, packages: string[], env: NodeJS.ProcessEnv): Promise<InstallSize> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'install-size', version: '1.0.0', private: true }, null, 2)}\n`);
  await run('npm', ['install', '--prefer-offline', '--no-package-lock', ...packages], { cwd: folder, env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
  return measureInstall(folder, `npm install ${packages.join(' ')}`);
}

/**
 * Starts the registry, publishes every package to it (as built: run after the build), installs
 * both SDKs in fresh folders and measures them. About a minute with a warm npm cache.
 */
export async function measureInstallSize(referenceVersion: string): Promise<InstallSizeReport> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'baton-install-size-')));
  const uplink = /^https?:\/\//.test(process.env.npm_config_registry ?? '') ? process.env.npm_config_registry! : 'https://registry.npmjs.org/';
  const registry = await startLocalRegistry(join(work, 'registry'), uplink);
  try {
    const env = userEnv(registry.npmrc);
    await run(process.execPath, [join(root, 'scripts', 'release.mjs'), '--registry', registry.url, '--only', '@baton/agents', '--no-version', '--no-build', '--no-tests'], {
      cwd: root,
      env,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 600_000,
    });
    const baton = await installInto(join(work, 'baton'), ['@baton/agents', 'zod'], env);
    const reference = await installInto(join(work, 'reference'), [`@openai/agents@${referenceVersion}`, 'zod'], env);
    return { baton, reference, referenceVersion };
  } finally {
    await registry.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The most packages `npm install @baton/agents zod` may bring (issue 26's light install). */
export const INSTALL_PACKAGES_TARGET = 35;

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

export function formatInstallSize({ baton, reference, referenceVersion }: InstallSizeReport): string {
  const row = (label: string, size: InstallSize) => `  ${label.padEnd(34)} ${String(size.packages).padStart(4)} packages ${megabytes(size.bytes).padStart(10)}`;
  const largest = (size: InstallSize) => size.largest.slice(0, 5).map((entry) => `${entry.name} ${megabytes(entry.bytes)}`).join(', ');
  return [
    'Install size (npm install in an empty project; Baton from a local registry it was just released to, the reference from npm):',
    row('npm install @baton/agents zod', baton),
    row(`npm install @openai/agents@${referenceVersion} zod`, reference),
    `  Baton/Ref: ${(baton.packages / reference.packages).toFixed(2)}× packages, ${(baton.bytes / reference.bytes).toFixed(2)}× bytes`,
    `  target ≤ ${INSTALL_PACKAGES_TARGET} packages (issue 26): ${baton.packages <= INSTALL_PACKAGES_TARGET ? 'met' : 'missed'}`,
    `  largest (Baton): ${largest(baton)}`,
    `  largest (reference): ${largest(reference)}`,
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { dependencies } = (await import('../../package.json', { with: { type: 'json' } })).default as { dependencies: Record<string, string> };
  const report = await measureInstallSize(dependencies['@openai/agents']!);
  console.log(formatInstallSize(report));
  const detail = process.argv.includes('--json');
  if (detail) console.log(JSON.stringify(report, null, 2));
  // Beside the full benchmark's latest.json (git-ignored, as it is).
  const results = new URL('../../results/', import.meta.url);
  mkdirSync(results, { recursive: true });
  writeFileSync(new URL('install-size.json', results), `${JSON.stringify({ generatedAt: new Date().toISOString(), ...report }, null, 2)}\n`);
  console.log(`Written to ${fileURLToPath(new URL('install-size.json', results))}`);
}
