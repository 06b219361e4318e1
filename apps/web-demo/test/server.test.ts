import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamedRunResult } from '@baton/core';
import { RunEventStreamError, readRunEvents, unwrapStreamingToolContext, type RunEventJSON } from '@baton/streaming';
import { FINAL_ANSWER, INNER_ANSWER } from '../src/agents.js';
import { createDemoServer, type DemoServer, type DemoServerOptions } from '../src/server.js';

let demo: DemoServer | undefined;
afterEach(async () => {
  await demo?.close();
  demo = undefined;
});

async function start(onRun?: (result: StreamedRunResult<unknown, any>) => void, more: Omit<DemoServerOptions, 'onRun'> = {}) {
  demo = createDemoServer({ ...(onRun ? { onRun } : {}), onError: () => undefined, ...more });
  return demo.listen();
}

/** A GET with headers `fetch` would not let us set (Host), answered as status and body. */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function collect(events: AsyncIterable<RunEventJSON>): Promise<RunEventJSON[]> {
  const out: RunEventJSON[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function messages(events: RunEventJSON[], depth: number): string[] {
  return events.flatMap((event) => {
    const { path, event: inner } = unwrapStreamingToolContext(event);
    if (path.length !== depth || inner.event_type !== 'run_item_stream_event' || inner.name !== 'message_output_created') return [];
    const item = inner.item;
    return item.type === 'message_output_item' ? [item.rawItem.content.map((p) => (p.type === 'output_text' ? p.text : '')).join('')] : [];
  });
}

describe('the demo server', () => {
  it('serves the page, its script and the decoder as a self-contained browser module', async () => {
    const url = await start();
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    const app = await (await fetch(`${url}/app.js`)).text();
    expect(app).toContain("from '/vendor/baton-streaming-client.js'");
    const vendor = await fetch(`${url}/vendor/baton-streaming-client.js`);
    expect(vendor.headers.get('content-type')).toContain('javascript');
    const code = await vendor.text();
    expect(code).toContain('readRunEvents');
    expect(code).not.toMatch(/^\s*import\s/m); // loads in a page with no bundler or import map
    expect(code).not.toContain('node:');
    expect((await fetch(`${url}/nope`)).status).toBe(404);
  });

  it('streams the run: the planner’s messages at the top, the researcher’s inside the research tool', async () => {
    const url = await start();
    const events = await collect(readRunEvents(await fetch(`${url}/api/run?delay=0`)));
    expect(messages(events, 0)).toEqual(['Let me check the weather first. ', 'Now I will ask the researcher. ', FINAL_ANSWER]);
    expect(messages(events, 1)).toEqual(['Searching the travel guides… ', INNER_ANSWER]);
    const progress = events.filter((e) => e.event_type === 'notify_stream_event');
    expect(progress.map((e) => `${e.toolName}:${(e.data as { pct: number }).pct}`)).toEqual([
      'analyze_weather:20',
      'analyze_weather:40',
      'analyze_weather:60',
      'analyze_weather:80',
      'analyze_weather:100',
      'search_guides:25',
      'search_guides:50',
      'search_guides:75',
      'search_guides:100',
    ]);
    expect(events.at(-1)).toMatchObject({ event_type: 'run_end', status: 'completed', finalOutput: FINAL_ANSWER, lastAgent: { name: 'Planner' } });
  });

  it('rejects a bad delay, and its broken-stream route breaks mid-event', async () => {
    const url = await start();
    const bad = await fetch(`${url}/api/run?delay=soon`);
    expect(bad.status).toBe(400);
    const got: RunEventJSON[] = [];
    const error = await (async () => {
      for await (const event of readRunEvents(await fetch(`${url}/api/broken`))) got.push(event);
    })().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(RunEventStreamError);
    expect((error as RunEventStreamError).reason).toBe('incomplete_event');
    expect(got.map((e) => e.event_type)).toEqual(['notify_stream_event']);
  });

  it('cancels the run when the client disconnects', async () => {
    const runs: StreamedRunResult<unknown, any>[] = [];
    const url = await start((result) => runs.push(result));
    const controller = new AbortController();
    const response = await fetch(`${url}/api/run?delay=50`, { signal: controller.signal });
    await (async () => {
      for await (const event of readRunEvents(response, { signal: controller.signal })) {
        if (event.event_type === 'notify_stream_event') controller.abort();
      }
    })().catch(() => undefined);
    const result = runs[0]!;
    await Promise.race([result.completed, new Promise((_, reject) => setTimeout(() => reject(new Error('run not cancelled')), 3000))]);
    expect(result.cancelled).toBe(true);
    expect(result.finalOutput).toBeUndefined();
  });
});

describe('the demo server refuses what a browser must not do', () => {
  it('a request for another Host (DNS rebinding) is refused, and starts no run', async () => {
    const runs: StreamedRunResult<unknown, any>[] = [];
    const url = await start((result) => runs.push(result));
    const port = new URL(url).port;
    const rebound = await get(`${url}/api/run?delay=0`, { host: `attacker.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toBe('Forbidden');
    expect((await get(`${url}/`, { host: `attacker.example:${port}` })).status).toBe(403);
    expect(runs).toHaveLength(0);
    // Its own names are answered.
    expect((await get(`${url}/`, { host: `localhost:${port}` })).status).toBe(200);
    expect((await get(`${url}/`, { host: `127.0.0.1:${port}` })).status).toBe(200);
  });

  it('a request from a page of another origin is refused; the demo’s own page is answered', async () => {
    const runs: StreamedRunResult<unknown, any>[] = [];
    const url = await start((result) => runs.push(result));
    for (const headers of [{ origin: 'http://attacker.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }]) {
      const crossSite = await get(`${url}/api/run?delay=0`, headers);
      expect(crossSite.status).toBe(403);
    }
    expect(runs).toHaveLength(0);
    const own = await get(`${url}/api/run?delay=0`, { origin: url, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(200);
    expect(own.body).toContain('"event_type":"run_end"');
  });

  it('more names can be allowed (a proxy in front)', async () => {
    const url = await start(undefined, { allowedHosts: ['demo.example.com:443'] });
    expect((await get(`${url}/`, { host: 'demo.example.com:443', origin: 'https://demo.example.com' })).status).toBe(200);
    expect((await get(`${url}/`, { host: 'demo.example.com' })).status).toBe(403); // port 80 is another name
  });

  it('a failure’s text stays on the server: the client gets a generic 500', async () => {
    const errors: unknown[] = [];
    const url = await start(
      (result) => {
        result.cancel();
        throw new Error('database password is hunter2');
      },
      { onError: (error) => errors.push(error) },
    );
    const response = await fetch(`${url}/api/run?delay=0`);
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).toBe('Internal server error');
    expect(String(errors[0])).toContain('hunter2');
  });

  it('streams text deltas for the typing effect, and no other raw model event', async () => {
    const url = await start();
    const events = await collect(readRunEvents(await fetch(`${url}/api/run?delay=0`)));
    const raw = events.map((event) => unwrapStreamingToolContext(event).event).filter((event) => event.event_type === 'raw_model_stream_event');
    expect(raw.length).toBeGreaterThan(0);
    for (const event of raw) expect(Object.keys(event.data)).toEqual(['type', 'delta']);
    expect(new Set(raw.map((event) => event.data.type))).toEqual(new Set(['output_text_delta']));
  });
});
