import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { FakeOpenAIServer, fakeText, type FakeTurn } from '@baton/testing';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// The shell, apply-patch, computer, tool search, Programmatic Tool Calling and compaction features
// on the wire, side by side: each SDK's OpenAI Responses model (the real `openai` client) sends the
// same request to the fake OpenAI server, reads the same answer into the same protocol items, and
// refuses the same configurations with the same message.

type Json = Record<string, any>;

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const schema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false };
const fn = (name: string, extra: Json = {}) => ({ type: 'function', name, description: `${name} tool`, parameters: schema, strict: true, ...extra });
const request = (overrides: Json = {}) => ({ input: 'hello', modelSettings: {}, tools: [], outputType: 'text', handoffs: [], tracing: false, ...overrides });

async function exchange({ sdk }: SdkUnderTest, req: Json, turn: FakeTurn = fakeText('ok'), model = 'gpt-5.4') {
  const server = await FakeOpenAIServer.start({ turns: [turn] });
  servers.push(server);
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, logLevel: 'off', maxRetries: 0 });
  const responsesModel = new (sdk as any).OpenAIResponsesModel(client, model);
  // The reference's model records its spans in the current trace.
  const outcome = await outcomeOf(sdk.withTrace('issue 30 wire', () => responsesModel.getResponse(req) as Promise<Json>));
  return {
    bodies: server.requests.map((recorded) => recorded.body),
    output: outcome.ok ? outcome.value.output : undefined,
    error: outcome.ok ? undefined : `${outcome.name}: ${(outcome.error as Error).message}`,
  };
}

const hosted = ({ sdk }: SdkUnderTest, name: 'toolSearchTool' | 'programmaticToolCallingTool', options?: Json) => {
  const tool = (sdk as any)[name](options);
  return { type: 'hosted_tool', name: tool.name, providerData: tool.providerData };
};

describe('issue 30 tools in the Responses request (same on both SDKs)', () => {
  it.each<[string, (under: SdkUnderTest) => Json, string?]>([
    ['a local shell, a hosted shell and apply_patch', () => request({ tools: [{ type: 'shell', name: 'shell' }, { type: 'shell', name: 'container', environment: { type: 'container_reference', containerId: 'cntr_1' } }, { type: 'apply_patch', name: 'apply_patch' }] })],
    ['the GA computer tool', () => request({ tools: [{ type: 'computer', name: 'computer', environment: 'browser', dimensions: [1024, 768] }] })],
    ['the preview computer tool', () => request({ tools: [{ type: 'computer', name: 'computer', environment: 'browser', dimensions: [1024, 768] }] }), 'computer-use-preview'],
    ['a preview computer tool choice on a GA model', () => request({ tools: [{ type: 'computer', name: 'computer', environment: 'mac', dimensions: [10, 10] }], modelSettings: { toolChoice: 'computer_use_preview' } })],
    ['a prompt-managed computer tool choice', () => request({ prompt: { promptId: 'pmpt_1' }, modelSettings: { toolChoice: 'computer' } })],
    ['namespaces, deferred tools and server tool search', (under) => request({ tools: [fn('lookup', { namespace: 'crm', namespaceDescription: 'CRM' }), fn('weather', { deferLoading: true }), fn('update', { namespace: 'crm', namespaceDescription: 'CRM', deferLoading: true }), hosted(under, 'toolSearchTool')] })],
    ['client tool search', (under) => request({ tools: [fn('weather', { deferLoading: true }), hosted(under, 'toolSearchTool', { execution: 'client' })] })],
    ['programmatic tool calling with a namespaced choice', (under) => request({ tools: [fn('lookup', { allowedCallers: ['direct', 'programmatic'], namespace: 'crm', namespaceDescription: 'CRM' }), hosted(under, 'programmaticToolCallingTool')], modelSettings: { toolChoice: 'crm.lookup' } })],
    ['context management', () => request({ modelSettings: { contextManagement: [{ type: 'compaction', compactThreshold: 2000 }] } })],
  ])('%s', async (_label, build, model) => {
    const both = await onBoth(async (under) => (await exchange(under, build(under), fakeText('ok'), model)).bodies);
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toHaveLength(1);
  });

  it.each<[string, (under: SdkUnderTest) => Json, string?]>([
    ['a deferred tool without tool search', () => request({ tools: [fn('a', { deferLoading: true })] })],
    ['a namespace without a description', () => request({ tools: [fn('a', { namespace: 'crm' })] })],
    ['namespace members sharing a name', () => request({ tools: [fn('a', { namespace: 'n', namespaceDescription: 'd' }), fn('a', { namespace: 'n', namespaceDescription: 'd' })] })],
    ['forcing a deferred tool', (under) => request({ tools: [fn('a', { deferLoading: true }), hosted(under, 'toolSearchTool')], modelSettings: { toolChoice: 'a' } })],
    ['forcing the built-in tool search', (under) => request({ tools: [fn('a', { deferLoading: true }), hosted(under, 'toolSearchTool')], modelSettings: { toolChoice: 'tool_search' } })],
    ['programmatic-only tools without the helper', () => request({ tools: [fn('a', { allowedCallers: ['programmatic'] })] })],
    ['the helper without an eligible tool', (under) => request({ tools: [fn('a'), hosted(under, 'programmaticToolCallingTool')] })],
    ['a preview computer without its display', () => request({ tools: [{ type: 'computer', name: 'computer' }] }), 'computer-use-preview'],
  ])('refuses %s', async (_label, build, model) => {
    const both = await onBoth(async (under) => {
      const { bodies, error } = await exchange(under, build(under), fakeText('never'), model);
      return { sent: bodies.length, error: error?.replace(/^\w+: /, '') };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.sent).toBe(0);
  });
});

const apiItems = [
  { type: 'shell_call', id: 'sh_1', call_id: 'call_sh', status: 'completed', action: { commands: ['ls -la'], timeout_ms: 5000, max_output_length: null } },
  { type: 'shell_call_output', id: 'sho_1', call_id: 'call_sh', status: 'completed', max_output_length: 10, output: [{ stdout: 'x', stderr: '', outcome: { type: 'exit', exit_code: 1 } }] },
  { type: 'apply_patch_call', id: 'ap_1', call_id: 'call_ap', status: 'completed', operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-a\n+b', move_to: 'b.txt' } },
  { type: 'apply_patch_call_output', id: 'apo_1', call_id: 'call_ap', status: 'completed', output: 'done' },
  { type: 'computer_call', id: 'cu_1', call_id: 'call_cu', status: 'completed', actions: [{ type: 'click', x: 1, y: 2, button: 'left' }], pending_safety_checks: [] },
  { type: 'tool_search_call', id: 'ts_1', call_id: 'call_ts', execution: 'client', status: 'completed', arguments: { paths: ['crm'] } },
  { type: 'tool_search_output', id: 'tso_1', call_id: 'call_ts', execution: 'client', status: 'completed', tools: [{ type: 'tool_reference', function_name: 'lookup', namespace: 'crm' }, { type: 'function', name: 'f', defer_loading: true }] },
  { type: 'program', id: 'pr_1', call_id: 'call_pr', code: 'print(1)', fingerprint: 'fp' },
  { type: 'program_output', id: 'pro_1', call_id: 'call_pr', result: '1', status: 'completed' },
  { type: 'compaction', id: 'cmp_1', encrypted_content: 'ciphertext', created_by: 'server' },
];

const answer: FakeTurn = { type: 'response', output: apiItems.map((item) => ({ type: 'item' as const, item })) };

describe('issue 30 output items (same on both SDKs)', () => {
  it('reads them into the same protocol items and sends them back the same way', async () => {
    const both = await onBoth(async (under) => {
      const { output } = await exchange(under, request(), answer);
      const results = [
        { type: 'shell_call_output', callId: 'call_sh', output: [{ stdout: 'y', stderr: 'e', outcome: { type: 'timeout' } }], maxOutputLength: 5 },
        { type: 'computer_call_result', callId: 'call_cu', output: { type: 'computer_screenshot', data: 'data:image/png;base64,AA==' }, providerData: { acknowledgedSafetyChecks: [{ id: 's' }] } },
      ];
      const { bodies } = await exchange(under, request({ input: [...(output as Json[]), ...results] }));
      return { output, input: bodies[0]?.input };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.input).toHaveLength(apiItems.length + 2);
  });

  it.each([
    ['a compaction item without ciphertext', { type: 'compaction', id: 'cmp_1' }],
    ['a compaction item with a malformed id', { type: 'compaction', id: 5, encrypted_content: 'x' }],
    ['a computer call without actions', { type: 'computer_call', id: 'c', call_id: 'c', status: 'completed' }],
    ['an apply_patch move to an empty path', { type: 'apply_patch_call', id: 'a', call_id: 'a', status: 'completed', operation: { type: 'update_file', path: 'a', diff: '', move_to: '' } }],
  ])('refuses %s in an answer', async (_label, item) => {
    const both = await onBoth(async (under) => (await exchange(under, request(), { type: 'response', output: [{ type: 'item', item }] })).error?.replace(/^\w+: /, ''));
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toBeTruthy();
  });
});
