import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamedRunResult } from '@baton/core';
import { approvalRecords } from '@baton/hitl-state';
import { connectBackend, type ChatBackend } from '../src/backend.js';
import { createChatServer, type ChatServer } from '../src/server.js';

// End to end in Debian's headless chromium (installed by test/globalSetup.ts), driven by
// playwright-core, on the offline backend (the fake model server playing the script). The
// screenshot is kept in test-artifacts/ (gitignored).
const artifacts = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let backend: ChatBackend;
let chat: ChatServer;
let baseUrl: string;
let context: BrowserContext;
let tmp: string;
const runs: StreamedRunResult<unknown, any>[] = [];
const serverErrors: unknown[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'baton-chat-test-'));
  // Offline whatever the environment says; text in pieces of a few characters, 15 ms apart, so it visibly streams.
  backend = await connectBackend({}, { eventDelayMs: 15, deltaChunks: 8 });
  chat = await createChatServer({ runner: backend.runner, model: backend.model, dbPath: join(tmp, 'chat.sqlite'), researchStepMs: 250, onRun: (result) => runs.push(result), onError: (error) => serverErrors.push(error) });
  baseUrl = await chat.listen();
  context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1000, height: 900 },
  });
});

afterAll(async () => {
  await context?.close();
  await chat?.close();
  await backend?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function openPage(address = baseUrl): Promise<Page> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(address);
  await page.waitForSelector('body[data-ready="true"]');
  expect(errors).toEqual([]);
  return page;
}

async function send(page: Page, text: string): Promise<void> {
  await page.fill('#message', text);
  await page.click('#send');
}

/**
 * Records, as the page renders them, every state a progress bar shows (`window.progressSeen`) and
 * every status the chat goes through (`window.statusSeen`): a wait that polls can miss a state
 * that lasts a moment.
 */
async function recordRendering(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    const statuses: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    (window as unknown as { statusSeen: string[] }).statusSeen = statuses;
    const record = () => {
      const status = document.body.dataset.status ?? '';
      if (statuses.at(-1) !== status) statuses.push(status);
      for (const bar of document.querySelectorAll<HTMLElement>('.progress')) {
        const entry = `${bar.dataset.status} ${bar.dataset.pct} ${bar.querySelector('.progress-label')?.textContent ?? ''}`;
        if (seen.at(-1) !== entry) seen.push(entry);
      }
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    record();
  });
}

/** What the conversation shows: each bubble's role and text (tool cards included). */
async function conversation(page: Page): Promise<Array<[string | null, string]>> {
  const bubbles = page.locator('#conversation .bubble');
  const out: Array<[string | null, string]> = [];
  for (let index = 0; index < (await bubbles.count()); index += 1) {
    const bubble = bubbles.nth(index);
    out.push([await bubble.getAttribute('data-role'), (await bubble.innerText()).trim()]);
  }
  return out;
}

describe('the chat app in headless chromium', () => {
  it('streams answers, shows a tool call, asks to approve a refund and resumes on Approve, shows research progress live, and a reload restores the conversation', async () => {
    const page = await openPage();
    const chatId = new URL(page.url()).searchParams.get('chat');
    expect(chatId).toMatch(/^[0-9a-f-]{36}$/);

    // A plain tool call; the answer streams (the chat goes through "streaming").
    await recordRendering(page);
    await send(page, 'Where is order 42?');
    const lookup = page.locator('.tool-card[data-tool="lookup_order"]');
    await lookup.and(page.locator('[data-state="output-available"]')).waitFor();
    await page.waitForSelector('body[data-status="ready"]');
    expect(await lookup.locator('.tool-output').innerText()).toBe('Order 42: 2 × Lisbon travel guide, €48.00, delivered 3 days ago.');
    expect(await page.locator('.bubble.assistant').last().innerText()).toContain('Anything else I can help with?');
    expect(await page.evaluate(() => (window as unknown as { statusSeen: string[] }).statusSeen)).toEqual(['ready', 'submitted', 'streaming', 'ready']);

    // A refund waits for approval: the paused run is in the store under the chat id.
    await send(page, 'Refund order 42');
    const refund = page.locator('.tool-card[data-tool="refund"]');
    await refund.and(page.locator('[data-state="approval-requested"]')).waitFor();
    await page.waitForSelector('body[data-status="ready"]');
    expect((await chat.store.load(chatId!))?.status).toBe('paused');
    expect(chat.ledger.refunds).toEqual([]);

    await refund.locator('button.approve').click();
    await refund.and(page.locator('[data-state="output-available"]')).waitFor();
    await page.waitForSelector('body[data-status="ready"]');
    expect(await refund.locator('.tool-output').innerText()).toBe('Refunded €48.00 for order 42.');
    expect(await page.locator('.bubble.assistant').last().innerText()).toContain('The money is on its way back to your card.');
    expect(chat.ledger.refunds).toEqual([{ orderId: '42', amountEur: 48 }]);
    const stored = await chat.store.load(chatId!);
    expect(stored?.status).toBe('completed');
    expect(approvalRecords(stored!.state)).toMatchObject([{ toolName: 'refund', status: 'approved', decidedBy: 'demo-user' }]);

    // Research: its progress shows live (a data part), then only its answer stays.
    await page.evaluate(() => ((window as unknown as { progressSeen: string[] }).progressSeen.length = 0));
    await send(page, 'Research eco-friendly packaging');
    const research = page.locator('.tool-card[data-tool="research"]');
    await research.and(page.locator('[data-state="output-available"]')).waitFor();
    await page.waitForSelector('body[data-status="ready"]');
    expect(await page.locator('.bubble.assistant').last().innerText()).toContain('I would pick the cardboard mailers.');
    // Each step was on the page while the tool ran, before its output arrived.
    expect(await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)).toEqual([
      'running 0 Starting…',
      'running 25 Searching the knowledge base',
      'running 50 Reading 3 supplier sheets',
      'running 75 Comparing prices',
      'running 100 Writing the summary',
      'done 100 Writing the summary',
    ]);

    mkdirSync(artifacts, { recursive: true });
    const screenshot = join(artifacts, 'chat.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);

    // A reload reads the conversation back from the database: the same bubbles, tool cards and outputs.
    const before = await conversation(page);
    expect(before.map(([role]) => role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await expect.poll(() => conversation(page)).toEqual(before);
    expect(await page.locator('.progress').count()).toBe(0);
    expect(serverErrors).toEqual([]);
    await page.close();
  });

  it('Reject resumes the run without refunding; a pending approval survives a reload; a stale Approve gets a clear error', async () => {
    const refundsBefore = chat.ledger.refunds.length;
    const page = await openPage();
    await send(page, 'Refund order 7');
    const refund = page.locator('.tool-card[data-tool="refund"]');
    await refund.and(page.locator('[data-state="approval-requested"]')).waitFor();
    await page.waitForSelector('body[data-status="ready"]');

    // The same chat in a second tab, and after a reload: the buttons are there again.
    const other = await openPage(page.url());
    const otherRefund = other.locator('.tool-card[data-tool="refund"]');
    await otherRefund.and(other.locator('[data-state="approval-requested"]')).waitFor();

    await refund.locator('button.reject').click();
    await refund.and(page.locator('[data-state="output-available"]')).waitFor();
    await page.waitForSelector('body[data-status="ready"]');
    expect(await page.locator('.bubble.assistant').last().innerText()).toContain('Understood, no refund was made.');
    expect(chat.ledger.refunds.length).toBe(refundsBefore);

    // The second tab still shows the buttons: its Approve is refused, and says why.
    await otherRefund.locator('button.approve').click();
    await other.waitForSelector('body[data-status="error"]');
    expect(await other.locator('.error-box').innerText()).toMatch(/No approval is waiting in chat ".*": the decision for refund \(call_\d+\) is for a call that is unknown to this chat or was decided already\./);
    expect(chat.ledger.refunds.length).toBe(refundsBefore);
    await other.close();
    await page.close();
  });

  it('Stop closes the connection, which cancels the run on the server', async () => {
    const page = await openPage();
    const before = runs.length;
    await send(page, 'Research shipping boxes');
    // Polled on a timer: a frame-based wait can miss a step of a bar that moves on.
    await page.waitForFunction(() => document.querySelector('.tool-card[data-tool="research"] .progress[data-pct="25"]') !== null, undefined, { polling: 20 });
    await page.click('#stop');
    const result = runs[before]!;
    await Promise.race([result.completed.catch(() => undefined), new Promise((_, reject) => setTimeout(() => reject(new Error('the server run was not cancelled')), 5000))]);
    expect(result.cancelled).toBe(true);
    expect(await chat.store.load(new URL(page.url()).searchParams.get('chat')!)).toBeUndefined();
    await page.close();
  });
});
