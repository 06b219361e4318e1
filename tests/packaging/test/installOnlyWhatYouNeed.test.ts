/**
 * "Install only the pieces you need": pack @baton/types, @baton/core and @baton/testing with
 * `pnpm pack`, install just those tarballs (plus zod) with npm into an empty project outside the
 * workspace, and run an agent with a tool there from ESM and from CommonJS.
 *
 * Assumes the packages are built (`npm test` runs the build first).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUST_NOT_RESOLVE, PACKAGES_TO_RESOLVE, consumerScript, type ConsumerFormat, type ConsumerReport } from './consumerScripts.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PACKED = [
  { name: '@baton/types', dir: 'packages/types' },
  { name: '@baton/core', dir: 'packages/core' },
  { name: '@baton/testing', dir: 'packages/testing' },
] as const;
const ZOD = 'zod@4.6.7';

interface Output {
  stdout: string;
  stderr: string;
}

function exec(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Output> {
  return new Promise((resolvePromise, reject) => {
    execFile(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 220_000 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`\`${[file, ...args].join(' ')}\` failed in ${cwd}: ${error.message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
      } else {
        resolvePromise({ stdout, stderr });
      }
    });
  });
}

/** pnpm as the repository's scripts provide it: `npm_execpath`, `.tools/`, or the PATH they set. */
function pnpmCommand(): { file: string; args: string[] } {
  const candidates = [process.env.npm_execpath, join(root, '.tools', 'node_modules', 'pnpm', 'bin', 'pnpm.cjs')];
  for (const candidate of candidates) {
    if (candidate === undefined || !/pnpm/i.test(basename(candidate)) || !existsSync(candidate)) continue;
    return /\.[cm]?js$/.test(candidate) ? { file: process.execPath, args: [candidate] } : { file: candidate, args: [] };
  }
  return { file: 'pnpm', args: [] };
}

/**
 * The environment of a user's shell: without what pnpm and vitest put there for the monorepo
 * (lifecycle and package variables, pnpm-only settings, NODE_PATH / NODE_OPTIONS), but with the
 * user's npm settings (registry, cache, proxy) kept.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(pnpm_|PNPM_|npm_(?!config_)|VITEST|NODE_PATH$|NODE_OPTIONS$)/.test(key)) continue;
    if (/^npm_config_(user_agent|verify_deps_before_run|node_gyp)$/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

function readJson(path: string): Record<string, any> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
}

let work: string;
let project: string;

beforeAll(async () => {
  for (const { name, dir } of PACKED) {
    for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts']) {
      if (!existsSync(join(root, dir, file))) throw new Error(`${name} is not built (${dir}/${file} missing): run the build first.`);
    }
  }

  work = realpathSync(mkdtempSync(join(tmpdir(), 'baton-packaging-')));
  const tarballs = join(work, 'tarballs');
  project = join(work, 'project');
  mkdirSync(tarballs);
  mkdirSync(project);

  const pnpm = pnpmCommand();
  for (const { dir } of PACKED) {
    await exec(pnpm.file, [...pnpm.args, 'pack', '--pack-destination', tarballs], join(root, dir), process.env);
  }
  const files = readdirSync(tarballs).filter((file) => file.endsWith('.tgz'));
  const tarballOf = (name: string): string => {
    const prefix = `${name.replace('@', '').replace('/', '-')}-`;
    const file = files.find((f) => f.startsWith(prefix));
    if (file === undefined) throw new Error(`no tarball for ${name} among ${files.join(', ')}`);
    return join(tarballs, file);
  };

  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'baton-consumer', version: '1.0.0', private: true }, null, 2)}\n`);
  await exec(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', ...PACKED.map(({ name }) => tarballOf(name)), ZOD],
    project,
    cleanEnv(),
  );
  writeFileSync(join(project, 'agent.mjs'), consumerScript('esm'));
  writeFileSync(join(project, 'agent.cjs'), consumerScript('cjs'));
});

afterAll(() => {
  if (work !== undefined && process.env.BATON_KEEP_PACKAGING_DIR === undefined) rmSync(work, { recursive: true, force: true });
});

describe('installing only @baton/types, @baton/core and @baton/testing', () => {
  it('works in a project outside the workspace', () => {
    expect(project.startsWith(realpathSync(root) + sep)).toBe(false);
    expect(existsSync(join(project, 'node_modules'))).toBe(true);
  });

  it('installs exactly the three packed packages, with workspace: ranges rewritten to versions', () => {
    const modules = join(project, 'node_modules');
    expect(readdirSync(join(modules, '@baton')).sort()).toEqual(['core', 'testing', 'types']);
    const versions = Object.fromEntries(PACKED.map(({ dir, name }) => [name, readJson(join(root, dir, 'package.json')).version]));
    for (const { name } of PACKED) {
      const manifest = readJson(join(modules, name, 'package.json'));
      expect(manifest.version).toBe(versions[name]);
      for (const [dep, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
        expect(String(range), `${name} → ${dep}`).not.toMatch(/^workspace:/);
      }
      // Only the build is shipped, not the sources.
      expect(existsSync(join(modules, name, 'src')), `${name} ships src/`).toBe(false);
    }
    expect(readJson(join(modules, '@baton/core', 'package.json')).dependencies['@baton/types']).toBe(versions['@baton/types']);
    expect(readJson(join(modules, '@baton/testing', 'package.json')).dependencies['@baton/types']).toBe(versions['@baton/types']);
    // effect arrives as core's dependency (a caret range: the newest release of its major); zod is
    // the one the project asked for.
    const effectRange = String(readJson(join(root, 'packages/core/package.json')).dependencies.effect);
    expect(effectRange).toMatch(/^\^\d+\.\d+\.\d+$/);
    expect(readJson(join(modules, 'effect', 'package.json')).version.split('.')[0]).toBe(effectRange.slice(1).split('.')[0]);
    expect(readJson(join(modules, 'zod', 'package.json')).version).toBe('4.6.7');
  });

  it.each<{ format: ConsumerFormat; file: string; entry: string }>([
    { format: 'esm', file: 'agent.mjs', entry: 'index.js' },
    { format: 'cjs', file: 'agent.cjs', entry: 'index.cjs' },
  ])('runs an agent with a tool from $format ($file)', async ({ format, file, entry }) => {
    const { stdout, stderr } = await exec(process.execPath, [file], project, cleanEnv());
    const lines = stdout.split('\n');
    expect(lines, stderr).toContain('tool add called with 2 and 3');
    expect(lines, stderr).toContain('final output: The sum is 5.');
    expect(lines, stderr).toContain('streamed output: The sum is 5.');

    const reportLine = lines.find((line) => line.startsWith('REPORT '));
    expect(reportLine, stdout + stderr).toBeDefined();
    const report = JSON.parse(reportLine!.slice('REPORT '.length)) as ConsumerReport;

    expect(report.format).toBe(format);
    expect(report.finalOutput).toBe('The sum is 5.');
    expect(report.itemTypes).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
    expect(report.toolCalls).toEqual([
      [2, 3],
      [2, 3],
    ]);
    expect(report.modelCalls).toBe(2);
    expect(report.secondRequestHasToolOutput).toBe(true);
    expect(report.streamed).toEqual({
      finalOutput: 'The sum is 5.',
      text: 'The sum is 5.',
      itemEvents: ['tool_called', 'tool_output', 'message_output_created'],
    });

    // Everything comes from the project's own node_modules, nothing from the monorepo.
    const modules = join(project, 'node_modules') + sep;
    for (const name of PACKAGES_TO_RESOLVE) {
      expect(report.required[name], `require.resolve('${name}')`).toMatch(new RegExp(`^${escapeRegExp(modules)}`));
      expect(report.loaded[name], `${format} resolution of '${name}'`).toMatch(new RegExp(`^${escapeRegExp(modules)}`));
    }
    expect(report.required['@baton/core']).toBe(join(modules, '@baton', 'core', 'dist', 'index.cjs'));
    for (const name of ['@baton/core', '@baton/testing', '@baton/types']) {
      expect(report.loaded[name]).toBe(join(modules, ...name.split('/'), 'dist', entry));
    }
    expect(report.leaked, `resolvable from the project: ${report.leaked.join(', ')}`).toEqual([]);
    expect(MUST_NOT_RESOLVE.length).toBeGreaterThan(0);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
