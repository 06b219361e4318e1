import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '@baton/testing';
import { onBoth, sdks, type SdkUnderTest } from './sdks.js';

/**
 * What reaches OpenAI's traces ingest: both SDKs export the same program through their
 * `OpenAITracingExporter` to a local server that records each POST, and the payloads are compared
 * with ids and timestamps replaced by placeholders.
 */

afterEach(() => {
  for (const { sdk } of sdks) sdk.setTraceProcessors([]);
});

interface Post {
  headers: IncomingHttpHeaders;
  body: { data: Record<string, any>[] };
}

async function ingestServer(answer: (attempt: number) => number = () => 200, headers: Record<string, string> = {}) {
  const posts: Post[] = [];
  let attempts = 0;
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      attempts += 1;
      posts.push({ headers: request.headers, body: JSON.parse(text) });
      response.writeHead(answer(attempts), { 'content-type': 'application/json', ...headers }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces/ingest`;
  return { url, posts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Ids become `id1`, `id2`, ... in order of first appearance; timestamps go. */
function normalized(items: Record<string, any>[]): Record<string, any>[] {
  const ids = new Map<string, string>();
  const idOf = (id: string | null) => {
    if (id === null) return null;
    if (!ids.has(id)) ids.set(id, `id${ids.size + 1}`);
    return ids.get(id);
  };
  return items.map(({ started_at: _s, ended_at: _e, ...item }) => ({
    ...item,
    id: idOf(item.id),
    ...('trace_id' in item ? { trace_id: idOf(item.trace_id) } : {}),
    ...('parent_id' in item ? { parent_id: idOf(item.parent_id) } : {}),
  }));
}

async function exported(under: SdkUnderTest, run: (runner: any) => Promise<unknown>, exporterOptions: Record<string, unknown> = {}) {
  const { sdk } = under;
  const ingest = await ingestServer();
  const model = await FakeOpenAIServer.start({
    turns: [fakeToolCalls([{ name: 'lookup', arguments: { id: 'A1' }, callId: 'c1' }]), fakeText('done')],
  });
  try {
    const exporter = new sdk.OpenAITracingExporter({ apiKey: 'sk-exporter', endpoint: ingest.url, ...exporterOptions });
    const processor = new sdk.BatchTraceProcessor(exporter);
    sdk.setTraceProcessors([processor]);
    sdk.setTracingDisabled(false);
    const provider = new sdk.OpenAIProvider({ apiKey: 'sk-model', baseURL: model.baseURL, useResponses: true });
    await run(new sdk.Runner({ modelProvider: provider }));
    await processor.forceFlush();
    return {
      items: normalized(ingest.posts.flatMap((post) => post.body.data)),
      auth: ingest.posts.map((post) => post.headers.authorization),
      beta: ingest.posts.map((post) => post.headers['openai-beta']),
      raw: JSON.stringify(ingest.posts.map((post) => post.body)),
    };
  } finally {
    sdk.setTraceProcessors([]);
    await model.close();
    await ingest.close();
  }
}

function program({ sdk }: SdkUnderTest, options: Record<string, unknown> = {}) {
  return (runner: any) => {
    const lookup = sdk.tool({ name: 'lookup', description: 'Find.', parameters: z.object({ id: z.string() }), execute: ({ id }) => `found ${id}` });
    return runner.run(new sdk.Agent({ name: 'Finder', tools: [lookup] }), 'find A1', options);
  };
}

describe('the same traces ingest payloads as the reference', () => {
  it('a run with a tool: the trace and its spans, with the exporter key in the header only', async () => {
    const both = await onBoth((under) => exported(under, program(under)));
    expect(both.baton.items).toEqual(both.reference.items);
    expect(both.baton.items.length).toBeGreaterThan(4);
    expect(both.baton.auth).toEqual(both.reference.auth);
    expect(both.baton.auth.every((header) => header === 'Bearer sk-exporter')).toBe(true);
    expect(both.baton.beta).toEqual(both.reference.beta);
    expect(both.baton.raw).not.toContain('sk-');
  });

  it('a run with its own tracing key: posted with that key, which appears in no payload', async () => {
    const both = await onBoth((under) => exported(under, program(under, { tracing: { apiKey: 'sk-run-key' } })));
    expect(both.baton.items).toEqual(both.reference.items);
    expect(both.baton.auth).toEqual(both.reference.auth);
    expect(both.baton.auth.every((header) => header === 'Bearer sk-run-key')).toBe(true);
    expect(both.baton.raw).not.toContain('sk-');
  });
});

describe('the exporter under failure', () => {
  it('retries 5xx and 429 with backoff, then succeeds', async () => {
    const { sdk } = sdks[1]!;
    const ingest = await ingestServer((attempt) => (attempt === 1 ? 503 : attempt === 2 ? 429 : 200));
    try {
      const exporter = new sdk.OpenAITracingExporter({ apiKey: 'sk-x', endpoint: ingest.url, baseDelay: 5, maxRetries: 3 });
      const trace = new sdk.Trace({ name: 'retry me' });
      await exporter.export([trace]);
      expect(ingest.posts).toHaveLength(3);
      expect(ingest.posts.every((post) => post.body.data[0].workflow_name === 'retry me')).toBe(true);
    } finally {
      await ingest.close();
    }
  });

  it('waits as long as Retry-After says (up to maxDelay) before trying again', async () => {
    const { sdk } = sdks[1]!;
    const times: number[] = [];
    const ingest = await ingestServer((attempt) => (times.push(Date.now()), attempt === 1 ? 429 : 200), { 'retry-after-ms': '300' });
    try {
      await new sdk.OpenAITracingExporter({ apiKey: 'sk-x', endpoint: ingest.url, baseDelay: 1 }).export([new sdk.Trace({ name: 't' })]);
      expect(ingest.posts).toHaveLength(2);
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(290);
    } finally {
      await ingest.close();
    }
  });

  it('does not retry a 400, and gives up after maxRetries without throwing', async () => {
    const { sdk } = sdks[1]!;
    const bad = await ingestServer(() => 400);
    const down = await ingestServer(() => 500);
    try {
      await new sdk.OpenAITracingExporter({ apiKey: 'sk-x', endpoint: bad.url, baseDelay: 5 }).export([new sdk.Trace({ name: 't' })]);
      expect(bad.posts).toHaveLength(1);
      await new sdk.OpenAITracingExporter({ apiKey: 'sk-x', endpoint: down.url, baseDelay: 5, maxRetries: 2 }).export([new sdk.Trace({ name: 't' })]);
      expect(down.posts).toHaveLength(2);
    } finally {
      await bad.close();
      await down.close();
    }
  });
});
