/**
 * A next release whose run-state schema changed, published to a local registry beside the one
 * `npm run release` put there. It is the current source with one format change applied, as a
 * release that changes the format would make it (see `runStateVersions.ts` in @baton/types):
 * the next `$schemaVersion` (the current one + 1), which adds `migratedFrom` (the versions a state was
 * migrated from), and a migration from the current version that fills it in. `@baton/types` is rebuilt from that source; every other package
 * is the published one with the next version and its `@baton/*` dependencies moved to it.
 */
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Exec {
  (file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout?: number): Promise<{ stdout: string; stderr: string }>;
}

function replaceOnce(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}: update the schema change in tests/registry/test/nextRelease.ts`);
  writeFileSync(file, text.replace(from, to));
}

/** The schema change, applied to a copy of packages/types/src: the current version + 1, with a migration appended to the released chain. */
function changeSchema(src: string): void {
  const schemaFile = join(src, 'runStateSchema.ts');
  const current = /CURRENT_RUN_STATE_SCHEMA_VERSION = '(\d+)' as const/.exec(readFileSync(schemaFile, 'utf8'))?.[1];
  if (current === undefined) throw new Error(`${schemaFile} no longer declares CURRENT_RUN_STATE_SCHEMA_VERSION as a literal: update tests/registry/test/nextRelease.ts`);
  const next = String(Number(current) + 1);
  replaceOnce(schemaFile, `CURRENT_RUN_STATE_SCHEMA_VERSION = '${current}' as const`, `CURRENT_RUN_STATE_SCHEMA_VERSION = '${next}' as const`);
  replaceOnce(
    schemaFile,
    '  runId: z.string().optional(),\n',
    `  runId: z.string().optional(),\n  /** Schema ${next}: the versions this state was migrated from, oldest first. */\n  migratedFrom: z.array(z.string()).optional(),\n`,
  );
  // The released chain stays as it is; the next release's step comes after it.
  const versionsFile = join(src, 'runStateVersions.ts');
  replaceOnce(versionsFile, 'export const RUN_STATE_MIGRATIONS: readonly RunStateMigration[] = [', 'const RELEASED_MIGRATIONS: readonly RunStateMigration[] = [');
  replaceOnce(
    versionsFile,
    '/** Every `$schemaVersion` this package can read',
    `export const RUN_STATE_MIGRATIONS: readonly RunStateMigration[] = [
  ...RELEASED_MIGRATIONS,
  {
    from: '${current}',
    to: '${next}',
    description: 'records the versions a state was migrated from (migratedFrom)',
    migrate: (state) => ({ ...state, $schemaVersion: '${next}', migratedFrom: [...((state.migratedFrom as string[] | undefined) ?? []), '${current}'] }),
  },
];

/** Every \`$schemaVersion\` this package can read`,
  );
}

/** Builds @baton/types with the schema change into `<work>/types/dist` (ESM and CJS with declarations, as the package builds). */
async function buildChangedTypes(root: string, work: string, exec: Exec, env: NodeJS.ProcessEnv): Promise<string> {
  const dir = join(work, 'types');
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, 'packages', 'types', 'src'), join(dir, 'src'), { recursive: true });
  changeSchema(join(dir, 'src'));
  // Its dependencies (zod) from the workspace, and TypeScript for the declarations.
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(join(root, 'packages', 'types', 'node_modules'))) {
    if (!entry.startsWith('.')) symlinkSync(join(root, 'packages', 'types', 'node_modules', entry), join(dir, 'node_modules', entry), 'dir');
  }
  symlinkSync(join(root, 'node_modules', 'typescript'), join(dir, 'node_modules', 'typescript'), 'dir');
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true, skipLibCheck: true } }));
  // As packages/types builds: ESM as .js (a "type": "module" package), CJS as .cjs, both entries
  // sharing chunks so the error classes are one class whichever entry loads them, and the
  // declarations (.d.ts / .d.cts) the next release's users type-check against.
  // Its dependencies named, so the build leaves them external as the package's does.
  const { dependencies } = JSON.parse(readFileSync(join(root, 'packages', 'types', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@baton/types', private: true, type: 'module', dependencies }));
  writeFileSync(
    join(dir, 'tsup.config.json'),
    JSON.stringify({ entry: ['src/index.ts', 'src/internal.ts'], format: ['esm', 'cjs'], dts: true, splitting: true, keepNames: true, target: 'node20', clean: true }),
  );
  const tsup = join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js');
  await exec(process.execPath, [tsup, '--silent'], dir, env);
  return join(dir, 'dist');
}

function nextMinor(version: string): string {
  const [major, minor] = version.split('.').map(Number);
  return `${major}.${minor! + 1}.0`;
}

/**
 * Publishes `names` (and nothing else) at the next minor version: each from its published tarball
 * at `version`, @baton/types with the schema change. Returns the next version.
 */
export async function publishNextRelease(options: {
  root: string;
  work: string;
  names: readonly string[];
  version: string;
  exec: Exec;
  env: NodeJS.ProcessEnv;
}): Promise<string> {
  const { root, work, names, version, exec, env } = options;
  const next = nextMinor(version);
  const changedDist = await buildChangedTypes(root, work, exec, env);
  for (const name of names) {
    const dir = join(work, 'next', name.replace('/', '+'));
    mkdirSync(dir, { recursive: true });
    const { stdout } = await exec('npm', ['pack', `${name}@${version}`, '--json'], dir, env);
    const filename = (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename;
    await exec('tar', ['-xzf', filename, '-C', dir], dir, env);
    rmSync(join(dir, filename));
    const manifestFile = join(dir, 'package', 'package.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown> & { dependencies?: Record<string, string> };
    manifest.version = next;
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (dependency.startsWith('@baton/')) manifest.dependencies![dependency] = next;
    }
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    if (name === '@baton/types') {
      rmSync(join(dir, 'package', 'dist'), { recursive: true });
      cpSync(changedDist, join(dir, 'package', 'dist'), { recursive: true });
    }
    await exec('npm', ['publish', '--tag', 'next'], join(dir, 'package'), env);
  }
  return next;
}
