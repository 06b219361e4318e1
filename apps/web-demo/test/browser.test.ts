import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamedRunResult } from '@baton/core';
import { FINAL_ANSWER, INNER_ANSWER } from '../src/agents.js';
import { createDemoServer, type DemoServer } from '../src/server.js';

// End to end in Debian's headless chromium (installed by test/globalSetup.ts), driven by
// playwright-core. The screenshot is kept in test-artifacts/ (gitignored).
const artifacts = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let demo: DemoServer;
let baseUrl: string;
let context: BrowserContext;
let userDataDir: string;
const runs: StreamedRunResult<unknown, any>[] = [];

beforeAll(async () => {
  demo = createDemoServer({ onRun: (result) => runs.push(result) });
  baseUrl = await demo.listen();
  // A fresh profile every time: launchPersistentContext passes it as --user-data-dir.
  userDataDir = mkdtempSync(join(tmpdir(), 'baton-web-demo-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
  });
});

afterAll(async () => {
  await context?.close();
  await demo?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

async function openPage(query = ''): Promise<Page> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${baseUrl}/${query}`);
  await page.waitForSelector('body[data-ready="true"]');
  expect(errors).toEqual([]);
  return page;
}

describe('the web demo in headless chromium', () => {
  it('streams the run: conversation, a progress bar, a collapsible inner panel for the nested agent', async () => {
    const page = await openPage('?delay=15');
    await page.click('#run');
    // While streaming: the progress bar moves before the run is done.
    await page.waitForSelector('.tool-card[data-tool="analyze_weather"] .progress[data-pct]');
    await page.waitForSelector('body[data-status="completed"]', { timeout: 30_000 });

    const conversation = page.locator('#conversation');
    const texts = async (locator: ReturnType<Page['locator']>) => (await locator.allInnerTexts()).map((t) => t.trim());
    await expect.poll(() => texts(conversation.locator('.bubble.assistant'))).toEqual([
      'Let me check the weather first.',
      'Now I will ask the researcher.',
      FINAL_ANSWER,
    ]);
    expect(await conversation.locator('.bubble.user').innerText()).toBe('Plan a trip to Lisbon');
    const conversationText = await conversation.innerText();
    expect(conversationText).not.toContain('Searching the travel guides'); // the inner run stays out
    expect(conversationText).toContain('← research: ' + INNER_ANSWER); // only its output enters

    const weather = page.locator('#activity > .tool-card[data-tool="analyze_weather"]');
    expect(await weather.getAttribute('data-state')).toBe('done');
    expect(await weather.locator('.progress').getAttribute('data-pct')).toBe('100');
    expect(await weather.locator('.progress-label').innerText()).toContain('Summarising (Lisbon)');

    const research = page.locator('#activity > .tool-card[data-tool="research"]');
    expect(await research.getAttribute('data-state')).toBe('done');
    const panel = research.locator('details.inner-run');
    expect(await panel.locator('summary').innerText()).toBe('Inner run · research → Researcher');
    expect(await texts(panel.locator('.bubble.assistant'))).toEqual(['Searching the travel guides…', INNER_ANSWER]);
    const nested = panel.locator('.tool-card[data-tool="search_guides"]');
    expect(await nested.locator('.progress').getAttribute('data-pct')).toBe('100');
    expect(await page.locator('#conversation details, #conversation .tool-card').count()).toBe(0);

    mkdirSync(artifacts, { recursive: true });
    const screenshot = join(artifacts, 'web-demo.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);

    // The inner panel collapses and opens again.
    await panel.locator('summary').click();
    expect(await panel.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    expect(await nested.isVisible()).toBe(false);
    await panel.locator('summary').click();
    expect(await nested.isVisible()).toBe(true);
    await page.close();
  });

  it('Stop closes the connection, and that cancels the run on the server', async () => {
    const page = await openPage('?delay=200');
    const before = runs.length;
    await page.click('#run');
    await page.waitForSelector('.tool-card[data-tool="analyze_weather"] .progress[data-pct]', { timeout: 20_000 });
    await page.click('#stop');
    await page.waitForSelector('body[data-status="cancelled"]');
    const result = runs[before]!;
    await Promise.race([result.completed, new Promise((_, reject) => setTimeout(() => reject(new Error('the server run was not cancelled')), 5000))]);
    expect(result.cancelled).toBe(true);
    expect(result.finalOutput).toBeUndefined();
    await page.close();
  });

  it('a stream that breaks mid-event shows the decoder’s typed error, with the events before it', async () => {
    const page = await openPage();
    await page.click('#broken');
    await page.waitForSelector('body[data-status="error"]');
    expect(await page.locator('#status').innerText()).toMatch(/^RunEventStreamError \(incomplete_event\)/);
    expect(await page.locator('.tool-card[data-tool="analyze_weather"] .progress').getAttribute('data-pct')).toBe('50');
    expect(await page.locator('.error-box').innerText()).toContain('incomplete_event');
    await page.close();
  });
});
