/**
 * One release through a throwaway registry, shared by every registry suite of `registry.test.ts`:
 * Verdaccio started once, every package published once (`npm run release`), then each suite's
 * installs a few at a time, one type-check of every suite's blocks (blockRunner.ts: one `tsc`
 * program per set of ambient types), and their runs a few at a time. Where the time went is printed
 * at the end and written to `.test-results/registry-timings.json`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { limiter, typeCheck, writeBlocks, type Block, type TypeCheckResult } from './blockRunner.js';
import { startLocalRegistry, type LocalRegistry } from './localRegistry.js';
import { workspacePrebuilds } from './nativePrebuilds.js';
import { installKey } from './readmeBlocks.js';
import { cleanEnv, exec, userRegistry } from './userShell.js';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The registry tests run in `npm test`; BATON_REGISTRY_TEST=0 skips them for a quick local run. */
export const enabled = process.env.BATON_REGISTRY_TEST !== '0';

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  engines?: { node?: string };
}

/** The packages a release publishes: every non-private one under packages/. */
export const publishable = readdirSync(join(root, 'packages'))
  .filter((name) => existsSync(join(root, 'packages', name, 'package.json')))
  .map((name) => ({ dir: `packages/${name}`, manifest: JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')) as Manifest }))
  .filter(({ manifest }) => manifest.private !== true);

/** A project made by following install lines; `name` is the document that first asked for it. */
export interface SharedProject {
  project: string;
  installed: Promise<void>;
  name: string;
}

export class RegistrySession {
  work!: string;
  registry!: LocalRegistry;
  /** npm's environment for installs: the registry's user config, the workspace's native prebuilds. */
  installEnv!: NodeJS.ProcessEnv;
  readonly timings: Array<{ step: string; seconds: number }> = [];
  /** Installs, a few at a time (network, disk, npm's own work). */
  readonly install = limiter(4);
  /** Block runs, a few at a time. */
  readonly run = limiter(4);
  /** Settles when every block added before `seal()` is type-checked. */
  checked!: Promise<TypeCheckResult>;
  private readonly pending: Array<Promise<Block[]>> = [];
  private readonly shared = new Map<string, SharedProject>();

  async timed<T>(step: string, work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await work();
    } finally {
      this.timings.push({ step, seconds: Math.round((Date.now() - started) / 100) / 10 });
    }
  }

  /** Starts the registry and publishes every package to it (as built: `npm test` builds first). */
  async start(): Promise<void> {
    for (const { dir, manifest } of publishable) {
      if (!existsSync(join(root, dir, 'dist'))) throw new Error(`${manifest.name} is not built (${dir}/dist missing): run the build first.`);
    }
    this.work = realpathSync(mkdtempSync(join(tmpdir(), 'baton-registry-')));
    this.registry = await this.timed('start the registry', () => startLocalRegistry(join(this.work, 'registry'), userRegistry()));
    this.installEnv = cleanEnv({ npm_config_userconfig: this.registry.npmrc, ...workspacePrebuilds(join(this.work, 'prebuilds')) });
    await this.timed(`publish ${publishable.length} packages (npm run release)`, () =>
      exec(
        process.execPath,
        [join(root, 'scripts', 'release.mjs'), '--registry', this.registry.url, '--no-version', '--no-build', '--no-tests'],
        root,
        cleanEnv({ npm_config_userconfig: this.registry.npmrc }),
        480_000,
      ),
    );
  }

  /** A fresh project folder with a package.json. */
  project(name: string, manifest: Record<string, unknown> = {}): string {
    const project = join(this.work, 'projects', name);
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true, ...manifest }, null, 2)}\n`);
    return project;
  }

  /** `npm install <args>` in a project from the registry, counted among the installs. */
  npmInstall(step: string, project: string, args: string[]): Promise<void> {
    // A native module (better-sqlite3) unpacks the workspace's prebuild, or compiles (minutes) without one.
    return this.install(() => this.timed(step, () => exec('npm', ['install', '--prefer-offline', ...args], project, this.installEnv, 900_000).then(() => {})));
  }

  /**
   * The project a document's install lines make, run in order in an empty folder: one per distinct
   * set of packages installed (installKey), shared by every document that installs the same (a guide
   * and the README of its package, say), so each distinct install runs once.
   */
  followInstallLines(name: string, installLines: string[][]): SharedProject {
    const key = installKey(installLines);
    const existing = this.shared.get(key);
    if (existing !== undefined) return existing;
    const project = this.project(`follow-${this.shared.size + 1}-${name.replace(/\/README\.md$|\.md$/, '').replace(/[^\w-]+/g, '-')}`);
    const installed = (async () => {
      for (const args of installLines) await this.npmInstall(`install ${name}${installLines.length > 1 ? ` (npm install ${args.join(' ')})` : ''}`, project, args);
    })();
    installed.catch(() => {});
    const shared = { project, installed, name };
    this.shared.set(key, shared);
    return shared;
  }

  /** Blocks to type-check once they are written (a failed install gives none). */
  addBlocks(blocks: Promise<Block[]>): void {
    this.pending.push(blocks.catch(() => []));
  }

  /** No more blocks: type-check all of them in as few programs as can be faithful. */
  seal(): void {
    this.checked = Promise.all(this.pending).then((lists) => {
      const blocks = lists.flat();
      writeBlocks(blocks);
      return this.timed(`type-check ${blocks.length} blocks, ESM and CJS (tsc --strict, skipLibCheck: false)`, () => typeCheck(blocks, join(this.work, 'tsc')));
    });
    this.checked.catch(() => {});
  }

  async stop(): Promise<void> {
    const programs = await this.checked?.then((result) => result.programs, () => []);
    for (const program of programs ?? []) this.timings.push({ step: `  tsc program: ${program.files} files of ${program.projects.length} projects`, seconds: program.seconds });
    if (this.timings.length > 0) {
      const report = this.timings.map(({ step, seconds }) => `${String(seconds).padStart(7)} s  ${step}`).join('\n');
      console.log(`Where the registry tests' time went:\n${report}`);
      mkdirSync(join(root, '.test-results'), { recursive: true });
      writeFileSync(join(root, '.test-results', 'registry-timings.json'), `${JSON.stringify(this.timings, null, 2)}\n`);
    }
    await this.registry?.stop();
    if (this.work !== undefined && process.env.BATON_KEEP_REGISTRY_DIR === undefined) rmSync(this.work, { recursive: true, force: true });
  }
}
