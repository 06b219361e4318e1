import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Codex } from '@openai/codex-sdk';
import { codexTool as referenceCodexTool } from '@openai/agents-extensions/experimental/codex';
import { codexTool as batonCodexTool } from '@baton/codex';
import { FakeOpenAIServer, fakeText, fakeToolCalls, type FakeTurn } from '@baton/testing';
import { onBoth, type SdkUnderTest } from './sdks.js';

// The Codex tool (the reference's `@openai/agents-extensions/experimental/codex`, Baton's
// `@baton/codex`) in the same program on both SDKs: a model (the fake Responses API) calls it, the
// real `@openai/codex-sdk` runs the fake Codex CLI of packages/codex, and we compare what the tool
// answers, the run items, what the model gets back, the events `onStream` saw, what the CLI was
// asked, the run's usage and the run context's thread id.

const fakeCodexPath = fileURLToPath(new URL('../../../packages/codex/test/fixtures/fakeCodex.mjs', import.meta.url));

function fakeCodexClient(env: Record<string, string> = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'compat-codex-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const log = join(folder, 'calls.jsonl');
  const codex = new Codex({ codexPathOverride: fakeCodexPath, env: { PATH: process.env.PATH ?? '', FAKE_CODEX_LOG: log, ...env } });
  const invocations = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);
  return { codex, invocations };
}

const codexToolOf = (under: SdkUnderTest) => (under.name === 'reference' ? referenceCodexTool : (batonCodexTool as unknown as typeof referenceCodexTool));

async function runWithCodex(under: SdkUnderTest, turns: FakeTurn[], options: Record<string, unknown>, runs = 1, env: Record<string, string> = {}) {
  const server = await FakeOpenAIServer.start({ turns });
  try {
    const { codex, invocations } = fakeCodexClient(env);
    const streamed: Array<{ type: string; threadId: string | null; callId?: string }> = [];
    const tool = codexToolOf(under)({
      codex,
      onStream: ({ event, threadId, toolCall }) => void streamed.push({ type: event.type, threadId, callId: toolCall?.callId }),
      ...options,
    } as never);
    const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
    const runner = new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
    const agent = new under.sdk.Agent({ name: 'Engineer', instructions: 'Use codex.', tools: [tool as never] });
    const context: Record<string, unknown> = {};
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await runner.run(agent, `task ${i}`, { context }));
    const toModel = server.requests.filter((request) => request.api !== undefined).map((request) => (request.body as { input?: unknown[] }).input?.at(-1));
    return {
      name: tool.name,
      // The parameters' descriptions are each SDK's own words.
      parameters: JSON.parse(JSON.stringify(tool.parameters, (key, value) => (key === 'description' ? undefined : value))),
      // Where the OpenAI provider keeps the response item's id is not the Codex tool's business.
      items: results.map((result) => result.newItems.map((item: any) => ({ type: item.type, rawItem: withoutProviderData(item.rawItem), output: item.output }))),
      finalOutputs: results.map((result) => result.finalOutput),
      usage: results.map((result) => ({ inputTokens: result.state.usage.inputTokens, outputTokens: result.state.usage.outputTokens, requests: result.state.usage.requests })),
      toModel,
      streamed,
      // The SDK writes the output schema to a fresh temporary file per turn; each CLI process has its pid.
      invocations: invocations().map(({ pid: _pid, ...call }: { argv: string[]; pid: number }) => ({
        ...call,
        argv: call.argv.map((arg) => arg.replace(/codex-output-schema-[^/]+/, 'codex-output-schema-*')),
      })),
      context,
    };
  } finally {
    await server.close();
  }
}

function withoutProviderData(rawItem: Record<string, unknown>): Record<string, unknown> {
  const { providerData: _providerData, ...rest } = rawItem;
  return rest;
}

const codexCall = (args: Record<string, unknown>, callId = 'call_codex') => fakeToolCalls([{ name: 'codex', arguments: args, callId }]);

describe('the Codex tool (same on both SDKs)', () => {
  it('a call: the answer, the run items, the events, the CLI arguments and the usage', async () => {
    const both = await onBoth((under) =>
      runWithCodex(under, [codexCall({ inputs: [{ type: 'text', text: ' list files ' }], threadId: null }), fakeText('done')], {
        sandboxMode: 'workspace-write',
        skipGitRepoCheck: true,
      }),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.items[0]?.[1]?.output).toEqual({
      threadId: 'thread_fake_1',
      response: 'Codex did: list files',
      usage: { input_tokens: 120, cached_input_tokens: 20, output_tokens: 30, cache_write_input_tokens: 0 },
    });
  });

  it('resuming a thread the model names, with an image', async () => {
    const args = { inputs: [{ type: 'text', text: 'again' }, { type: 'local_image', path: '/tmp/a.png' }], threadId: 'thread_old' };
    const both = await onBoth((under) => runWithCodex(under, [codexCall(args), fakeText('done')], {}));
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.invocations[0].argv).toContain('resume');
  });

  it('a failed Codex turn and a crashed CLI: the model is told the tool failed, the run goes on', async () => {
    for (const text of ['FAIL_TURN', 'CRASH']) {
      const both = await onBoth((under) => runWithCodex(under, [codexCall({ inputs: [{ type: 'text', text }], threadId: null }), fakeText('sorry')], {}));
      expect(both.baton).toEqual(both.reference);
      expect(both.baton.finalOutputs).toEqual(['sorry']);
    }
  });

  it('the thread id kept in the run context continues the thread in the next run', async () => {
    const both = await onBoth((under) =>
      runWithCodex(
        under,
        [codexCall({ inputs: [{ type: 'text', text: 'one' }] }, 'call_1'), fakeText('first'), codexCall({ inputs: [{ type: 'text', text: 'two' }] }, 'call_2'), fakeText('second')],
        { useRunContextThreadId: true },
        2,
        { FAKE_CODEX_THREAD_ID: 'thread_ctx' },
      ),
    );
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.context).toEqual({ codexThreadId: 'thread_ctx' });
  });

  it('an output schema descriptor reaches Codex as the same JSON schema', async () => {
    const outputSchema = { title: 'Summary', properties: [{ name: 'summary', description: 'One line', schema: { type: 'string' } }], required: ['summary'] };
    const both = await onBoth((under) => runWithCodex(under, [codexCall({ inputs: [{ type: 'text', text: 'sum up' }], threadId: null }), fakeText('ok')], { outputSchema }));
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.invocations[0].outputSchema).toMatchObject({ additionalProperties: false, required: ['summary'] });
  });
});
