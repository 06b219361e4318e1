/**
 * docs/guide/versions-side-by-side.md, followed through a registry: the session's release (`npm run
 * release` to a throwaway Verdaccio) is the old one, a next release whose run-state schema changed is published
 * beside them (see nextRelease.ts), and in an empty project the guide's install line puts both in
 * one app under npm aliases. Then its files run as written: pause a run on the old release, resume
 * it on the new one (the migration reads the old state), and see the old release refuse what the
 * new one wrote; then durable runs: a run paused on an old-release worker is drained by it while a
 * new-release worker takes new runs (PostgreSQL started here). Each `// comment` is what the line
 * before it must print. The files are JavaScript as the guide runs them, type-checked as an editor
 * checks them (`checkJs`, `--strict`, `skipLibCheck: false`) against both releases' declarations.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startPostgres } from '@baton/testing/postgres';
import { describe, expect, it } from 'vitest';
import { publishNextRelease } from './nextRelease.js';
import { enabled, root, type RegistrySession } from './registrySession.js';
import { cleanEnv, exec } from './userShell.js';

const guideFile = 'docs/guide/versions-side-by-side.md';
const guide = readFileSync(join(root, guideFile), 'utf8');

/** The guide's files: its ```js [name] blocks, in order. */
const files = [...guide.matchAll(/^```js \[([\w.-]+)\]\n([\s\S]*?)^```$/gm)].map((match) => ({ name: match[1]!, code: match[2]! }));
/** Its install line (the ```sh block, `\` continuations joined). */
const installLine = /^```sh\n([\s\S]*?)^```$/m.exec(guide)![1]!.replace(/\\\n/g, ' ').trim().split(/\s+/);

/** The `// comments` of `console.log(...)` lines: what a file says it prints, in order. */
function promised(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\);[ \t]*\/\/ (.+)$/gm)].map((match) => match[1]!.trim());
}

function manifestOf(name: string): { version: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(root, 'packages', name.replace('@baton/', ''), 'package.json'), 'utf8'));
}

/** The packages the guide installs and the `@baton/*` packages they depend on. */
function closure(names: string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const [dependency, range] of Object.entries(manifestOf(name).dependencies ?? {})) if (range.startsWith('workspace:')) visit(dependency);
  };
  names.forEach(visit);
  return [...seen];
}

const released = manifestOf('@baton/core').version;
let next: string | undefined;
let project: string;
/** The next release published (tag `next`, so `latest` stays the release every other suite installs) and the guide's install line followed. */
let ready: Promise<void>;

/**
 * Publishes the next release beside the one the session published. Awaited before any other suite
 * installs: npm installs here with `--prefer-offline`, so a `@baton/*` packument it fetched before
 * the next release existed would be served from its cache without it (ETARGET on `@baton/types@<next>`,
 * as a CI run under load saw when a README install won that race).
 */
export async function publishVersionsSideBySide(session: RegistrySession): Promise<void> {
  if (!enabled) return;
  const env = cleanEnv({ npm_config_userconfig: session.registry.npmrc });
  next = await session.timed('publish the next release (run-state schema 2)', () =>
    publishNextRelease({ root, work: session.work, names: closure(['@baton/core', '@baton/hitl-state', '@baton/dbos', '@baton/testing']), version: released, exec, env }),
  );
}

/** Installs both releases in one project, as the guide says (after publishVersionsSideBySide). */
export function prepareVersionsSideBySide(session: RegistrySession): void {
  project = session.project('support-app', { type: 'module' });
  ready = (async () => {
    if (next === undefined) throw new Error('the next release was not published: call publishVersionsSideBySide first');
    // The guide's versions are the test's: the workspace's and the next minor.
    const args = installLine.slice(2).map((arg) => arg.replace('@0.1.0', `@${released}`).replace('@0.2.0', `@${next}`));
    await session.npmInstall(`install ${guideFile}`, project, args);
    for (const { name, code } of files) writeFileSync(join(project, name), code);
  })();
  ready.catch(() => {});
}

export function describeVersionsSideBySide(session: RegistrySession): void {
  describe.runIf(enabled)(`${guideFile}, through a registry`, () => {
    it('installs the old release under aliases beside the new one', async () => {
      await ready;
      expect(installLine.slice(0, 2)).toEqual(['npm', 'install']);
      const version = (path: string) => JSON.parse(readFileSync(join(project, 'node_modules', path, 'package.json'), 'utf8')).version;
      expect(version('@baton/core')).toBe(next);
      expect(version('core-v1')).toBe(released);
      expect(version('hitl-state-v1')).toBe(released);
      // Each release reads states with its own @baton/types.
      const typesOf = (pkg: string) => {
        const nested = join(project, 'node_modules', pkg, 'node_modules', '@baton', 'types', 'package.json');
        try {
          return JSON.parse(readFileSync(nested, 'utf8')).version;
        } catch {
          return version('@baton/types');
        }
      };
      expect(typesOf('core-v1')).toBe(released);
      expect(typesOf('@baton/core')).toBe(next);
    });

    it('type-checks the guide’s files against both releases (checkJs, --strict, skipLibCheck: false)', async () => {
      await ready;
      const compilerOptions = { allowJs: true, checkJs: true, noEmit: true, strict: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'] };
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: files.map(({ name }) => name) }, null, 2));
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      // tsc exits non-zero on any error; its output (in the message) lists them.
      const errors = await session.timed(`type-check ${guideFile}'s files`, () =>
        exec(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], project, cleanEnv(), 600_000).then(
          () => [],
          (error: Error) => error.message.split('\n').filter(Boolean),
        ),
      );
      expect(errors).toEqual([]);
    });

    it.each(['pause.mjs', 'resume.mjs', 'refuse.mjs'])('runs %s as the guide writes it, printing what it says', async (name) => {
      await ready;
      const file = files.find((entry) => entry.name === name);
      expect(file, `${guideFile} has a \`\`\`js [${name}] block`).toBeDefined();
      const { stdout } = await session.timed(`run ${guideFile} ${name}`, () => exec(process.execPath, [name], project, cleanEnv(), 120_000));
      expect(stdout.trim().split('\n')).toEqual(promised(file!.code));
    });

    it('drains a durable run on the old release’s worker while the new release’s worker takes new runs', async () => {
      await ready;
      const postgres = await startPostgres();
      const env = cleanEnv({ DATABASE_URL: postgres.urlFor('support_app') });
      const workers: ChildProcess[] = [];
      const script = (name: string) => files.find((file) => file.name === name)!.code;
      const runScript = async (name: string) => {
        const { stdout } = await session.timed(`run ${guideFile} ${name}`, () => exec(process.execPath, [name], project, env, 180_000));
        expect(stdout.trim().split('\n'), name).toEqual(promised(script(name)));
      };
      try {
        workers.push(await startWorker(project, 'v1', env));
        await runScript('start-v1.mjs');
        workers.push(await startWorker(project, 'v2', env));
        await runScript('drain.mjs');
      } finally {
        await Promise.all(workers.map(stopWorker));
        postgres.stop();
      }
    });

    it('the next release lists its migration and applies it to the old state', async () => {
      await ready;
      const code = `import { readFileSync } from 'node:fs';
import { SUPPORTED_RUN_STATE_SCHEMA_VERSIONS, migrateRunStateJson } from '@baton/hitl-state';
import * as v1 from 'hitl-state-v1';
const migrated = migrateRunStateJson(JSON.parse(readFileSync('paused.json', 'utf8')));
console.log(JSON.stringify({ next: SUPPORTED_RUN_STATE_SCHEMA_VERSIONS, old: v1.SUPPORTED_RUN_STATE_SCHEMA_VERSIONS, version: migrated.$schemaVersion, migratedFrom: migrated.migratedFrom }));`;
      writeFileSync(join(project, 'migration.mjs'), code);
      const { stdout } = await exec(process.execPath, ['migration.mjs'], project, cleanEnv(), 60_000);
      expect(JSON.parse(stdout)).toEqual({ next: ['1', '2', '3', '4'], old: ['1', '2', '3'], version: '4', migratedFrom: ['3'] });
    });
  });
}

/** `node worker.mjs <version>` in the project, as the guide runs it; resolves once it says it is ready. */
function startWorker(project: string, version: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['worker.mjs', version], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => fail(new Error('not ready after 120 s')), 120_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`worker.mjs ${version}: ${error.message}\n${output}`));
    };
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes(`worker ${version} ready`)) {
        clearTimeout(timer);
        resolvePromise(child);
      }
    });
    child.once('exit', (code) => fail(new Error(`exited with ${code} before it was ready`)));
  });
}

/** SIGTERM (the guide's worker shuts down on it), SIGKILL if it has not exited after 15 s. */
function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolvePromise();
    });
    child.kill('SIGTERM');
  });
}
