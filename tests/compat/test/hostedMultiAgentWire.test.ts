import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { z } from 'zod';
import { FakeOpenAIServer, fakeItems, type FakeTurn } from '@baton/testing';
import { onBoth, type SdkUnderTest } from './sdks.js';

// The hosted multi-agent model side by side: the same agent program, written against the
// reference's `@openai/agents-openai/experimental/hosted-multi-agent`, runs on each SDK through the
// real `openai` client against the fake server's Responses WebSocket. The frames each sends (the
// `response.create` and the `response.inject` of a local tool's output), the handshake's beta
// header, the results and what the local tool learnt of its hosted caller are compared.

type Json = Record<string, any>;

interface HostedModule {
  OpenAIHostedMultiAgentModel: new (client: OpenAI, model: string, config?: { maxConcurrentSubagents?: number }) => { close(): Promise<void> };
  getHostedAgentMetadata(value: unknown): { agentName: string; phase?: string } | undefined;
}

/** A package's ESM entry for a subpath, resolved from where another package finds it (neither is a direct dependency here). */
async function subpathFrom(via: string, pkg: string, subpath: string): Promise<HostedModule> {
  const viaRequire = createRequire(createRequire(import.meta.url).resolve(via));
  // The package's folder, from its root entry (its manifest need not be an export).
  let folder = dirname(viaRequire.resolve(pkg));
  while (!existsSync(join(folder, 'package.json')) || JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).name !== pkg) {
    if (dirname(folder) === folder) throw new Error(`no folder of ${pkg} found from ${via}`);
    folder = dirname(folder);
  }
  const target = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).exports[subpath].import;
  const file = typeof target === 'string' ? target : target.default;
  return (await import(pathToFileURL(join(folder, file)).href)) as HostedModule;
}

const hosted: Record<SdkUnderTest['name'], HostedModule> = {} as never;
beforeAll(async () => {
  hosted.reference = await subpathFrom('@openai/agents', '@openai/agents-openai', './experimental/hosted-multi-agent');
  hosted.baton = await subpathFrom('@baton/agents', '@baton/openai-provider', './experimental/hosted-multi-agent');
  // The reference's WebSocket client is the global one (Node 22 has it); on older Node, `ws` stands in.
  if (typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'undefined') {
    const fromProvider = createRequire(createRequire(createRequire(import.meta.url).resolve('@baton/agents')).resolve('@baton/openai-provider'));
    (globalThis as { WebSocket?: unknown }).WebSocket = fromProvider('ws').WebSocket;
  }
});

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const spawn = { type: 'multi_agent_call', id: 'mac_1', call_id: 'call_spawn', action: 'spawn_agent', arguments: '{}', agent: { agent_name: '/root' } };
const lookupCall = (callId: string, agent: string, proposal: string) => ({
  type: 'function_call',
  id: `fc_${callId}`,
  call_id: callId,
  name: 'get_proposal',
  arguments: JSON.stringify({ proposal }),
  status: 'completed',
  agent: { agent_name: agent },
});
const note = (agent: string, text: string) => ({ type: 'message', id: `msg_${agent.replaceAll('/', '_')}`, role: 'assistant', status: 'completed', agent: { agent_name: agent }, content: [{ type: 'output_text', text, annotations: [] }] });
const rootAnswer = (text: string) => ({
  type: 'message',
  id: 'msg_root',
  role: 'assistant',
  status: 'completed',
  phase: 'final_answer',
  agent: { agent_name: '/root' },
  content: [{ type: 'output_text', text, annotations: [] }],
});

const turns: FakeTurn[] = [
  fakeItems([spawn, lookupCall('call_alpha', '/root/alpha', 'alpha'), note('/root/alpha', 'alpha: six weeks'), lookupCall('call_beta', '/root/beta', 'beta'), rootAnswer('Beta is slower but safer.')], {
    usage: { inputTokens: 40, outputTokens: 12 },
  }),
  fakeItems([lookupCall('call_gamma', '/root/gamma', 'alpha'), rootAnswer('Alpha again.')], { usage: { inputTokens: 20, outputTokens: 4 } }),
];

async function hostedProgram({ name, sdk }: SdkUnderTest) {
  const server = await FakeOpenAIServer.start({ turns });
  servers.push(server);
  const { OpenAIHostedMultiAgentModel, getHostedAgentMetadata } = hosted[name];
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, logLevel: 'off', maxRetries: 0 });
  const model = new OpenAIHostedMultiAgentModel(client, 'gpt-5.6-sol', { maxConcurrentSubagents: 2 });
  const callers: unknown[] = [];
  const getProposal = sdk.tool({
    name: 'get_proposal',
    description: 'Return the details of a proposal.',
    parameters: z.object({ proposal: z.enum(['alpha', 'beta']) }),
    execute: async ({ proposal }, _context, details) => {
      callers.push({ metadata: getHostedAgentMetadata(details), callId: details?.toolCall?.callId });
      return { proposal, weeks: proposal === 'alpha' ? 6 : 8 };
    },
  });
  const agent = new sdk.Agent({ name: 'Hosted coordinator', model: model as never, tools: [getProposal], instructions: 'Delegate to hosted subagents.' });
  try {
    const result = await sdk.run(agent, 'Compare alpha with beta.');
    const streamed = await sdk.run(agent, 'Once more.', { stream: true });
    const hostedItems: unknown[] = [];
    let text = '';
    for await (const event of streamed) {
      if (sdk.isOpenAIResponsesRawModelStreamEvent(event) && event.data.event.type === 'response.output_item.done') {
        const item = (event.data.event as Json).item;
        hostedItems.push([item.type, getHostedAgentMetadata(item)?.agentName]);
      }
      if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') text += event.data.delta;
    }
    await streamed.completed;
    const usage = (run: { state: { usage: Json } }) => ({ requests: run.state.usage.requests, inputTokens: run.state.usage.inputTokens, outputTokens: run.state.usage.outputTokens });
    return {
      finalOutput: result.finalOutput,
      newItems: result.newItems.map((item: Json) => item.type),
      usage: usage(result as never),
      streamedFinalOutput: streamed.finalOutput,
      streamedText: text,
      streamedUsage: usage(streamed as never),
      hostedItems,
      callers,
      frames: server.requests.map((recorded) => ({ transport: recorded.transport, beta: recorded.headers['openai-beta'], body: recorded.body })),
      upgrades: server.upgrades,
    };
  } finally {
    await model.close();
  }
}

describe('OpenAIHostedMultiAgentModel (same on both SDKs)', () => {
  it('sends the same frames, injects local tool outputs the same way, and gives the same results', async () => {
    const both = await onBoth(hostedProgram);
    expect(both.baton).toEqual(both.reference);
    // What the comparison covered: a response.create, then one injection per local call, per run.
    expect(both.baton.frames.map((frame) => frame.body.type ?? 'response.create')).toEqual([
      'response.create',
      'response.inject',
      'response.inject',
      'response.create',
      'response.inject',
    ]);
    expect(both.baton.frames[0]?.beta).toBe('responses_multi_agent=v1');
    expect(both.baton.frames[0]?.body.multi_agent).toEqual({ enabled: true, max_concurrent_subagents: 2 });
    expect(both.baton.finalOutput).toBe('Beta is slower but safer.');
    expect(both.baton.callers).toMatchObject([{ metadata: { agentName: '/root/alpha' } }, { metadata: { agentName: '/root/beta' } }, { metadata: { agentName: '/root/gamma' } }]);
    expect(both.baton.upgrades).toBe(1);
  });
});
