import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from './staticServer.js';

// The documentation site as `npm test` builds it (turbo runs @baton/docs's `build` first), served
// over HTTP and opened in Debian's headless chromium (installed by test/globalSetup.ts).
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', '..', '..', 'docs', '.vitepress', 'dist');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let site: Awaited<ReturnType<typeof serveStatic>>;
let context: BrowserContext;
let userDataDir: string;

beforeAll(async () => {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(`The docs site is not built (${dist} is missing): run \`pnpm turbo run build --filter=@baton/docs\` first.`);
  }
  site = await serveStatic(dist);
  userDataDir = mkdtempSync(join(tmpdir(), 'baton-docs-site-test-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_FLAGS,
  });
});

afterAll(async () => {
  await context?.close();
  await site?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

interface Rendered {
  page: Page;
  problems: string[];
  failedRequests: string[];
}

/** Opens a page and waits until the app has hydrated; collects console errors, page errors and failed requests. */
async function open(path: string): Promise<Rendered> {
  const page = await context.newPage();
  const problems: string[] = [];
  const failedRequests: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  page.on('requestfailed', (request) => failedRequests.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 400) failedRequests.push(`${response.status()} ${response.url()}`);
  });
  const response = await page.goto(`${site.url}${path}`, { waitUntil: 'networkidle' });
  expect(response?.status(), path).toBe(200);
  // VitePress's client app took over (the sidebar is rendered by Vue after hydration too).
  await page.waitForSelector('#app .VPContent');
  await page.waitForSelector('.VPSidebar');
  return { page, problems, failedRequests };
}

describe('the documentation site in headless Chromium', () => {
  it('renders a guide: title, heading, type-checked code samples, sidebar links', async () => {
    const { page, problems, failedRequests } = await open('/guide/streaming.html');
    expect(await page.title()).toBe('Streaming and streaming tools | Baton');
    expect((await page.locator('.vp-doc h1').first().textContent())?.trim()).toContain('Streaming and streaming tools');
    expect(await page.locator('.vp-doc h2').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Streaming tools')]));

    // Samples are included from docs/samples/*.ts, highlighted as TypeScript.
    const code = page.locator('.vp-doc div[class*="language-ts"] pre code');
    expect(await code.count()).toBeGreaterThanOrEqual(3);
    const sample = await code.first().textContent();
    expect(sample).toContain("from '@baton/core'");
    expect(sample).toContain('stream: true');
    expect(await page.locator('.vp-doc pre .line span[style*="--shiki"]').count()).toBeGreaterThan(10);

    const sidebar = await page.locator('.VPSidebar a').allTextContents();
    expect(sidebar).toEqual(expect.arrayContaining(['Getting started', 'Guardrails', 'Human in the loop and stores', 'Durable runs', 'MCP']));
    expect(problems).toEqual([]);
    expect(failedRequests).toEqual([]);
    await page.close();
  });

  it('renders an API page generated from the types: title, heading, signatures in code blocks', async () => {
    const { page, problems, failedRequests } = await open('/api/@baton/guardrails.html');
    expect(await page.title()).toBe('@baton/guardrails | Baton');
    expect((await page.locator('.vp-doc h1').first().textContent())?.trim()).toContain('@baton/guardrails');
    const headings = await page.locator('.vp-doc h2, .vp-doc h3').allTextContents();
    expect(headings.join('\n')).toContain('defineInputGuardrail');

    const code = await page.locator('.vp-doc pre code').allTextContents();
    expect(code.length).toBeGreaterThan(0);
    expect(code.some((block) => block.includes('defineInputGuardrail'))).toBe(true);

    // The API sidebar lists every documented package.
    const sidebar = await page.locator('.VPSidebar').textContent();
    for (const name of ['@baton/core', '@baton/types', '@baton/openai-provider', '@baton/ai-sdk-provider', '@baton/hitl-state', '@baton/mcp', '@baton/tracing', '@baton/dbos']) {
      expect(sidebar, name).toContain(name);
    }
    expect(problems).toEqual([]);
    expect(failedRequests).toEqual([]);
    await page.close();
  });

  it('has an API page for every published package and every public subpath entry (./internal aside)', () => {
    const packagesDir = join(here, '..', '..', '..', 'packages');
    const missing: string[] = [];
    for (const folder of readdirSync(packagesDir)) {
      const manifest = JSON.parse(readFileSync(join(packagesDir, folder, 'package.json'), 'utf8')) as { name: string; private?: boolean; exports?: Record<string, unknown> };
      if (manifest.private) continue;
      // `./browser` is `./client` bundled for browsers: the same API, documented once.
      const subpaths = Object.keys(manifest.exports ?? {}).filter((key) => !['.', './package.json', './internal', './browser'].includes(key));
      // The package's page is `<name>.html`, or `<name>/index.html` where it has subpages (entries, namespaces).
      const main = [`${manifest.name}.html`, `${manifest.name}/index.html`];
      if (!main.some((page) => existsSync(join(dist, 'api', page)))) missing.push(main.join(' or '));
      for (const key of subpaths) {
        const page = `${manifest.name}/${key.slice(2)}.html`;
        if (!existsSync(join(dist, 'api', page))) missing.push(page);
      }
    }
    expect(missing).toEqual([]);
  });
});
