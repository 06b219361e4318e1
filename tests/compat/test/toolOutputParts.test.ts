import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '@baton/testing';
import { onBoth, type SdkUnderTest } from './sdks.js';

// A tool returning image and file parts (every source form the reference takes): the item kept in
// history and the tool output sent to OpenAI (Responses and Chat Completions) are the reference's.

const outputs: Record<string, unknown> = {
  'image from base64 data': { type: 'image', image: { data: 'AAAA', mediaType: 'image/png' } },
  'image from bytes': { type: 'image', image: { data: new Uint8Array([137, 80, 78, 71]), mediaType: 'image/png' } },
  'image from a URL, with detail': { type: 'image', image: { url: 'https://example.com/y.png' }, detail: 'low' },
  'image by file id': { type: 'image', image: { fileId: 'file_9' } },
  'image data on the part': { type: 'image', data: 'AAAA', mediaType: 'image/png' },
  'file from data': { type: 'file', file: { data: 'JVBER', mediaType: 'application/pdf', filename: 'a.pdf' } },
  'file from a URL': { type: 'file', file: { url: 'https://example.com/a.pdf', filename: 'a.pdf' } },
  'file by id': { type: 'file', file: { id: 'file_1' } },
  'file as a data URL': { type: 'file', file: 'data:application/pdf;base64,JVBER' },
  'text and file': [{ type: 'text', text: 'see' }, { type: 'file', file: { id: 'file_1', filename: 'x.pdf' } }],
  'a part without a source': { type: 'image' },
};

async function sent(under: SdkUnderTest, output: unknown, useResponses: boolean) {
  const server = await FakeOpenAIServer.start({ turns: [fakeToolCalls([{ name: 'shot', arguments: {} }]), fakeText('done')] });
  try {
    const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses });
    const runner = new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
    const shot = under.sdk.tool({ name: 'shot', description: 's', parameters: z.object({}), execute: () => output as never });
    const result = await runner.run(new under.sdk.Agent({ name: 'A', tools: [shot] }), 'go');
    const body = server.requests[1]!.body as { input?: Array<{ output?: unknown }>; messages?: Array<{ content?: unknown }> };
    return { history: (result.history[2] as { output: unknown }).output, wire: useResponses ? body.input!.at(-1)!.output : body.messages!.at(-1)!.content };
  } finally {
    await server.close();
  }
}

describe('image and file tool outputs (same on both SDKs)', () => {
  it.each(Object.keys(outputs))('%s (Responses)', async (label) => {
    const both = await onBoth((under) => sent(under, outputs[label], true));
    expect(both.baton).toEqual(both.reference);
  });

  it.each(['image from base64 data', 'file by id', 'text and file'])('%s (Chat Completions)', async (label) => {
    const both = await onBoth((under) => sent(under, outputs[label], false));
    expect(both.baton).toEqual(both.reference);
  });
});
