import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * OpenTelemetry is an optional peer: an app that installed `@baton/tracing` without it can import
 * `@baton/tracing/opentelemetry`, and making a processor fails with the command that adds what is
 * missing. Tested on the built package, in a folder whose node_modules has no @opentelemetry/*.
 */
const packageDir = join(import.meta.dirname, '..');
const fromPackage = createRequire(join(packageDir, 'package.json'));
let app: string;

function packageRoot(name: string): string {
  return realpathSync(dirname(fromPackage.resolve(`${name}/package.json`)));
}

beforeAll(() => {
  app = realpathSync(mkdtempSync(join(tmpdir(), 'baton-tracing-peers-')));
  const tracing = join(app, 'node_modules', '@baton', 'tracing');
  mkdirSync(tracing, { recursive: true });
  cpSync(join(packageDir, 'package.json'), join(tracing, 'package.json'));
  cpSync(join(packageDir, 'dist'), join(tracing, 'dist'), { recursive: true });
  for (const name of ['@baton/core', '@baton/types', 'effect']) {
    mkdirSync(dirname(join(app, 'node_modules', name)), { recursive: true });
    symlinkSync(packageRoot(name), join(app, 'node_modules', name), 'dir');
  }
});

afterAll(() => rmSync(app, { recursive: true, force: true }));

function run(code: string, extension: 'mjs' | 'cjs'): string {
  const file = join(app, `check.${extension}`);
  writeFileSync(file, code);
  try {
    // Without NODE_PATH (pnpm sets one that reaches every package of the workspace).
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_PATH' && key !== 'NODE_OPTIONS'));
    return execFileSync(process.execPath, [file], { cwd: app, env, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
}

describe.each(['mjs', 'cjs'] as const)('@baton/tracing/opentelemetry without OpenTelemetry installed (%s)', (extension) => {
  const load =
    extension === 'mjs'
      ? `const otel = await import('@baton/tracing/opentelemetry');`
      : `const otel = require('@baton/tracing/opentelemetry');`;

  it('imports without loading OpenTelemetry', () => {
    expect(run(`${load}\nconsole.log(typeof otel.OpenTelemetryTracingProcessor, typeof otel.otlpTracingProcessor);`, extension).trim()).toBe('function function');
  });

  it('OpenTelemetryTracingProcessor names @opentelemetry/api and how to install it', () => {
    const output = run(`${load}\nnew otel.OpenTelemetryTracingProcessor();`, extension);
    expect(output).toContain('OpenTelemetryTracingProcessor needs @opentelemetry/api, an optional peer dependency of @baton/tracing that is not installed');
    expect(output).toContain('npm install @opentelemetry/api');
  });

  it('otlpTracingProcessor names every missing SDK package in one install line', () => {
    const output = run(`${load}\notel.otlpTracingProcessor();`, extension);
    expect(output).toContain(
      'Install it with: npm install @opentelemetry/exporter-trace-otlp-http @opentelemetry/resources @opentelemetry/sdk-trace @opentelemetry/api',
    );
  });
});
