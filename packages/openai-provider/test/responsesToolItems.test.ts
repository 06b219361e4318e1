import { describe, expect, it } from 'vitest';
import { fakeText, type FakeTurn } from '@baton/testing';
import { UserError, type AgentInputItem, type SerializedTool } from '@baton/types';
import { codeInterpreterTool, programmaticToolCallingTool, toolSearchTool } from '../src/index.js';
import { citySchema, fakeServer, modelFor, rejectionOf, request } from './helpers.js';

// The shell, apply-patch, computer, tool search, Programmatic Tool Calling and compaction features
// on the Responses wire, through the real `openai` client against the fake server.

const fn = (name: string, extra: Record<string, unknown> = {}): SerializedTool =>
  ({ type: 'function', name, description: `${name} tool`, parameters: citySchema, strict: true, ...extra }) as SerializedTool;

function serialized(tool: { type: 'hosted_tool'; name: string; providerData?: Record<string, unknown> }): SerializedTool {
  return { type: 'hosted_tool', name: tool.name, providerData: tool.providerData };
}

async function bodyFor(tools: SerializedTool[], overrides: Parameters<typeof request>[0] = {}, model = 'gpt-5.4') {
  const server = await fakeServer(fakeText('ok'));
  await modelFor(server, 'responses', model).getResponse(request({ tools, ...overrides }));
  return server.requests[0]!.body;
}

describe('Responses tool definitions for issue 30 tools', () => {
  it('sends shell (with its environment), apply_patch and the GA computer tool for a GA model', async () => {
    const body = await bodyFor([
      { type: 'shell', name: 'shell' },
      { type: 'shell', name: 'hosted_shell', environment: { type: 'container_auto', fileIds: ['f1'], networkPolicy: { type: 'allowlist', allowedDomains: ['a.test', ''] } } },
      { type: 'apply_patch', name: 'apply_patch', allowedCallers: ['direct'] },
      { type: 'computer', name: 'computer', environment: 'browser', dimensions: [1024, 768] },
    ]);
    expect(body.tools).toEqual([
      { type: 'shell', environment: { type: 'local' } },
      { type: 'shell', environment: { type: 'container_auto', file_ids: ['f1'], network_policy: { type: 'allowlist', allowed_domains: ['a.test'] } } },
      { type: 'apply_patch', allowed_callers: ['direct'] },
      { type: 'computer' },
    ]);
  });

  it('sends the preview computer tool with its display for a preview model, and refuses one without a display', async () => {
    const computer: SerializedTool = { type: 'computer', name: 'computer', environment: 'mac', dimensions: [800, 600] };
    const body = await bodyFor([computer], {}, 'computer-use-preview');
    expect(body.tools).toEqual([{ type: 'computer_use_preview', environment: 'mac', display_width: 800, display_height: 600 }]);

    const server = await fakeServer(fakeText('never'));
    const error = await rejectionOf(modelFor(server, 'responses', 'computer-use-preview').getResponse(request({ tools: [{ type: 'computer', name: 'computer' }] })));
    expect(error).toBeInstanceOf(UserError);
    expect(String(error)).toContain('Preview computer tools require environment and dimensions');
    expect(server.requests).toHaveLength(0);
  });

  it('groups namespaced function tools into one namespace tool, keeps deferred tools flat, and sends tool_search', async () => {
    const body = await bodyFor([
      fn('lookup_account', { namespace: 'crm', namespaceDescription: 'CRM tools' }),
      fn('get_weather', { deferLoading: true }),
      fn('update_account', { namespace: 'crm', namespaceDescription: 'CRM tools', deferLoading: true }),
      serialized(toolSearchTool()),
    ]);
    expect(body.tools).toEqual([
      {
        type: 'namespace',
        name: 'crm',
        description: 'CRM tools',
        tools: [
          { type: 'function', name: 'lookup_account', description: 'lookup_account tool', parameters: citySchema, strict: true },
          { type: 'function', name: 'update_account', description: 'update_account tool', parameters: citySchema, strict: true, defer_loading: true },
        ],
      },
      { type: 'function', name: 'get_weather', description: 'get_weather tool', parameters: citySchema, strict: true, defer_loading: true },
      { type: 'tool_search' },
    ]);
  });

  it('gives client tool search the built-in loader schema', async () => {
    const body = await bodyFor([fn('a', { deferLoading: true }), serialized(toolSearchTool({ execution: 'client' }))]);
    expect((body.tools as unknown[])[1]).toEqual({
      type: 'tool_search',
      execution: 'client',
      description: 'Load tools by namespace or tool name before calling them.',
      parameters: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'], additionalProperties: false },
    });
  });

  it.each([
    ['a deferred tool without toolSearchTool()', [fn('a', { deferLoading: true })], {}, 'require toolSearchTool()'],
    ['a namespace without a description', [fn('a', { namespace: 'crm' })], {}, 'must provide a non-empty description'],
    ['two namespace members with one name', [fn('a', { namespace: 'n', namespaceDescription: 'd' }), fn('a', { namespace: 'n', namespaceDescription: 'd' })], {}, 'duplicate function tool name "a"'],
    ['forcing a deferred tool', [fn('a', { deferLoading: true }), serialized(toolSearchTool())], { toolChoice: 'a' }, 'cannot force a deferred function tool'],
    ['forcing the built-in tool search', [fn('a', { deferLoading: true }), serialized(toolSearchTool())], { toolChoice: 'tool_search' }, 'Use "auto" instead'],
    ['programmatic-only tools without the helper', [fn('a', { allowedCallers: ['programmatic'] })], {}, 'require programmaticToolCallingTool(). Affected tools: a.'],
    ['the helper without an eligible tool', [fn('a'), serialized(programmaticToolCallingTool())], {}, 'requires at least one tool whose allowedCallers'],
  ])('refuses %s before sending anything', async (_name, tools, settings, message) => {
    const server = await fakeServer(fakeText('never'));
    const error = await rejectionOf(
      modelFor(server, 'responses').getResponse(request({ tools: tools as SerializedTool[], modelSettings: { retry: { maxRetries: 0 }, ...settings } })),
    );
    expect(error).toBeInstanceOf(UserError);
    expect(String(error)).toContain(message);
    expect(server.requests).toHaveLength(0);
  });

  it('sends Programmatic Tool Calling, allowed callers, a namespaced tool choice and context management', async () => {
    const body = await bodyFor(
      [
        fn('lookup', { allowedCallers: ['direct', 'programmatic'], namespace: 'crm', namespaceDescription: 'CRM' }),
        serialized(codeInterpreterTool({ allowedCallers: ['programmatic'] })),
        serialized(programmaticToolCallingTool()),
      ],
      { modelSettings: { toolChoice: 'crm.lookup', contextManagement: [{ type: 'compaction', compactThreshold: 1000 }], retry: { maxRetries: 0 } } },
    );
    expect(body.tools).toEqual([
      {
        type: 'namespace',
        name: 'crm',
        description: 'CRM',
        tools: [{ type: 'function', name: 'lookup', description: 'lookup tool', parameters: citySchema, strict: true, allowed_callers: ['direct', 'programmatic'] }],
      },
      { type: 'code_interpreter', container: { type: 'auto' }, allowed_callers: ['programmatic'] },
      { type: 'programmatic_tool_calling' },
    ]);
    expect(body.tool_choice).toEqual({ type: 'function', name: 'crm.lookup' });
    expect(body.context_management).toEqual([{ type: 'compaction', compact_threshold: 1000 }]);
  });

  it('rejects a tool search tool with another name or a client executor without client execution', () => {
    expect(() => toolSearchTool({ name: 'search' as 'tool_search' })).toThrow('canonical built-in name');
    expect(() => toolSearchTool({ execute: () => null })).toThrow('only supports execute when execution is "client"');
    expect(() => codeInterpreterTool({ allowedCallers: ['direct', 'direct'] })).toThrow('must not contain duplicate callers');
  });
});

/** A Responses answer carrying each kind of output item, as the API sends them. */
const apiItems = [
  { type: 'shell_call', id: 'sh_1', call_id: 'call_sh', status: 'completed', action: { commands: ['ls -la'], timeout_ms: 5000, max_output_length: null } },
  { type: 'apply_patch_call', id: 'ap_1', call_id: 'call_ap', status: 'completed', operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-a\n+b', move_to: 'b.txt' } },
  { type: 'computer_call', id: 'cu_1', call_id: 'call_cu', status: 'completed', actions: [{ type: 'screenshot' }], pending_safety_checks: [{ id: 'sc_1', code: 'c', message: 'm' }] },
  { type: 'tool_search_call', id: 'ts_1', call_id: 'call_ts', execution: 'client', status: 'completed', arguments: { paths: ['crm'] } },
  { type: 'tool_search_output', id: 'tso_1', call_id: 'call_ts', execution: 'client', status: 'completed', tools: [{ type: 'tool_reference', function_name: 'lookup', namespace: 'crm' }] },
  { type: 'function_call', id: 'fc_1', call_id: 'call_fn', name: 'lookup', namespace: 'crm', arguments: '{}', status: 'completed', caller: { type: 'program', caller_id: 'prog_1' } },
  { type: 'compaction', id: 'cmp_1', encrypted_content: 'ciphertext', created_by: 'server' },
];

const turnWith = (items: Array<Record<string, unknown>>): FakeTurn => ({ type: 'response', output: items.map((item) => ({ type: 'item' as const, item })) });

describe('Responses output items of issue 30 tools, and their way back', () => {
  it('reads each item into its protocol item', async () => {
    const server = await fakeServer(turnWith(apiItems));
    const response = await modelFor(server, 'responses').getResponse(request());
    expect(response.output).toEqual([
      { type: 'shell_call', id: 'sh_1', callId: 'call_sh', status: 'completed', action: { commands: ['ls -la'], timeoutMs: 5000 }, providerData: { id: 'sh_1', type: 'shell_call' } },
      {
        type: 'apply_patch_call',
        id: 'ap_1',
        callId: 'call_ap',
        status: 'completed',
        operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-a\n+b', moveTo: 'b.txt' },
        providerData: { id: 'ap_1', type: 'apply_patch_call' },
      },
      {
        type: 'computer_call',
        id: 'cu_1',
        callId: 'call_cu',
        status: 'completed',
        action: { type: 'screenshot' },
        actions: [{ type: 'screenshot' }],
        providerData: { id: 'cu_1', type: 'computer_call', pending_safety_checks: [{ id: 'sc_1', code: 'c', message: 'm' }] },
      },
      { type: 'tool_search_call', id: 'ts_1', status: 'completed', arguments: { paths: ['crm'] }, providerData: { call_id: 'call_ts', execution: 'client' } },
      {
        type: 'tool_search_output',
        id: 'tso_1',
        status: 'completed',
        tools: [{ type: 'tool_reference', functionName: 'lookup', namespace: 'crm' }],
        providerData: { call_id: 'call_ts', execution: 'client' },
      },
      { type: 'function_call', id: 'fc_1', callId: 'call_fn', name: 'lookup', namespace: 'crm', arguments: '{}', status: 'completed', caller: { type: 'program', callerId: 'prog_1' } },
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'ciphertext', created_by: 'server', providerData: { id: 'cmp_1', type: 'compaction' } },
    ]);
  });

  it('sends them back in the API shape, with the results the run adds', async () => {
    const first = await fakeServer(turnWith(apiItems));
    const output = (await modelFor(first, 'responses').getResponse(request())).output as AgentInputItem[];
    const results: AgentInputItem[] = [
      { type: 'shell_call_output', callId: 'call_sh', maxOutputLength: 100, output: [{ stdout: 'x', stderr: '', outcome: { type: 'exit', exitCode: 0 } }, { stdout: '', stderr: '', outcome: { type: 'timeout' } }] },
      { type: 'apply_patch_call_output', callId: 'call_ap', status: 'failed', output: 'no such file' },
      {
        type: 'computer_call_result',
        callId: 'call_cu',
        output: { type: 'computer_screenshot', data: 'data:image/png;base64,AA==' },
        providerData: { acknowledgedSafetyChecks: [{ id: 'sc_1', code: 'c', message: 'm' }] },
      },
    ];
    const server = await fakeServer(fakeText('ok'));
    await modelFor(server, 'responses').getResponse(request({ input: [...output, ...results] }));
    expect(server.requests[0]!.body.input).toEqual([
      { type: 'shell_call', id: 'sh_1', call_id: 'call_sh', status: 'completed', action: { commands: ['ls -la'], timeout_ms: 5000, max_output_length: null } },
      { type: 'apply_patch_call', id: 'ap_1', call_id: 'call_ap', status: 'completed', operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-a\n+b', move_to: 'b.txt' } },
      {
        type: 'computer_call',
        call_id: 'call_cu',
        id: 'cu_1',
        status: 'completed',
        pending_safety_checks: [{ id: 'sc_1', code: 'c', message: 'm' }],
        action: { type: 'screenshot' },
        actions: [{ type: 'screenshot' }],
      },
      { type: 'tool_search_call', id: 'ts_1', status: 'completed', arguments: { paths: ['crm'] }, call_id: 'call_ts', execution: 'client' },
      { type: 'tool_search_output', id: 'tso_1', status: 'completed', tools: [{ type: 'tool_reference', function_name: 'lookup', namespace: 'crm' }], call_id: 'call_ts', execution: 'client' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_fn', name: 'lookup', arguments: '{}', status: 'completed', caller: { type: 'program', caller_id: 'prog_1' }, namespace: 'crm' },
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'ciphertext' },
      {
        type: 'shell_call_output',
        call_id: 'call_sh',
        output: [
          { stdout: 'x', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
          { stdout: '', stderr: '', outcome: { type: 'timeout' } },
        ],
        max_output_length: 100,
      },
      { type: 'apply_patch_call_output', call_id: 'call_ap', status: 'failed', output: 'no such file' },
      {
        type: 'computer_call_output',
        call_id: 'call_cu',
        output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AA==' },
        acknowledged_safety_checks: [{ id: 'sc_1', code: 'c', message: 'm' }],
      },
    ]);
  });

  it('refuses a compaction item without its ciphertext, in either direction', async () => {
    const server = await fakeServer(turnWith([{ type: 'compaction', id: 'cmp_1' }]));
    expect(String(await rejectionOf(modelFor(server, 'responses').getResponse(request())))).toContain('Compaction item missing encrypted_content');
    const error = await rejectionOf(modelFor(server, 'responses').getResponse(request({ input: [{ type: 'compaction', id: 'c' } as AgentInputItem] })));
    expect(error).toBeInstanceOf(UserError);
    expect(String(error)).toContain('Compaction item missing encrypted_content');
  });

  it.each([
    [{ type: 'compaction', encrypted_content: 'x' }, 'Compaction items are not supported for chat completions'],
    [{ type: 'shell_call', callId: 'c', action: { commands: ['ls'] } }, 'Computer use calls are not supported for chat completions'],
    [{ type: 'tool_search_call', arguments: {} }, 'Tool search items are not supported for chat completions'],
    [{ type: 'function_call', callId: 'c', name: 'lookup', namespace: 'crm', arguments: '{}' }, 'Namespaced function call history is not supported'],
    [{ type: 'function_call', callId: 'c', name: 'lookup', arguments: '{}', caller: { type: 'program', callerId: 'p' } }, 'Programmatic Tool Calling history'],
  ])('Chat Completions refuses %j in history', async (item, message) => {
    const server = await fakeServer(fakeText('never'));
    const error = await rejectionOf(modelFor(server, 'chat_completions').getResponse(request({ input: [item as AgentInputItem] })));
    expect(error).toBeInstanceOf(UserError);
    expect(String(error)).toContain(message);
    expect(server.requests).toHaveLength(0);
  });
});
