import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserRunReport } from '../fixtures/program.js';

// "Runs anywhere": the portable packages, bundled from their published builds for the browser
// (esbuild, platform browser: a Node built-in anywhere in the graph fails the build), run in
// Debian's headless chromium (installed by test/globalSetup.ts).
const here = dirname(fileURLToPath(import.meta.url));
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let context: BrowserContext;
let userDataDir: string;
let bundle: string;
let bundledInputs: string[];

beforeAll(async () => {
  const output = await build({
    entryPoints: [join(here, '..', 'fixtures', 'program.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // As a bundler resolves an installed package: the `browser` / `import` conditions of its exports.
    conditions: ['browser', 'import'],
  });
  bundle = output.outputFiles[0]!.text;
  bundledInputs = Object.keys(output.metafile.inputs);
  userDataDir = mkdtempSync(join(tmpdir(), 'baton-browser-test-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_FLAGS,
  });
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

describe('Baton in a browser', () => {
  it('bundles from the packages’ builds, not their sources', () => {
    for (const name of ['core', 'types', 'guardrails', 'handoffs', 'openai-provider', 'testing']) {
      expect(bundledInputs.some((path) => path.includes(`packages/${name}/dist/`)), name).toBe(true);
    }
    expect(bundledInputs.filter((path) => path.includes('/src/') && path.includes('packages/'))).toEqual([]);
  });

  it('runs an agent with a tool, a handoff, streaming and a tripped guardrail in headless Chromium', async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
    });
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: bundle, type: 'module' });
    await page.waitForFunction(() => (globalThis as { batonReport?: unknown }).batonReport !== undefined);
    const report = (await page.evaluate(() => (globalThis as unknown as { batonReport: Promise<unknown> }).batonReport)) as BrowserRunReport | { error: string };

    expect(problems).toEqual([]);
    expect(report).not.toHaveProperty('error');
    const ok = report as BrowserRunReport;
    expect(ok.toolRun).toEqual({ finalOutput: 'It is sunny in Oslo.', toolOutput: 'Sunny in Oslo', lastAgent: 'Weather' });
    expect(ok.streamedEvents).toContain('run_item_stream_event:tool_output');
    expect(ok.streamedEvents.at(-1)).toBe('run_item_stream_event:message_output_created');
    expect(ok.guardrailRun).toEqual({ rejectedWith: 'InputGuardrailTripwireTriggered', guardrail: 'no_secrets', modelCalls: 0 });
    expect(ok.providerModel).toBe('gpt-test');
    await page.close();
  });
});
