import { describe, expect, it } from 'vitest';
import { attachClientToolSearchExecutor, getClientToolSearchExecutor, protocol, type AgentInputItem, type HostedTool } from '../src/index.js';

const items: AgentInputItem[] = [
  { type: 'shell_call', callId: 'c1', status: 'completed', action: { commands: ['ls'], timeoutMs: 1000 } },
  { type: 'shell_call_output', callId: 'c1', output: [{ stdout: 'a', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] },
  { type: 'apply_patch_call', callId: 'c2', status: 'completed', operation: { type: 'update_file', path: 'a.ts', diff: '@@\n-a\n+b', moveTo: 'b.ts' } },
  { type: 'apply_patch_call_output', callId: 'c2', status: 'failed', output: 'no such file' },
  { type: 'computer_call', callId: 'c3', status: 'completed', actions: [{ type: 'click', x: 1, y: 2, button: 'left' }] },
  { type: 'computer_call_result', callId: 'c3', output: { type: 'computer_screenshot', data: 'data:image/png;base64,AA==' } },
  { type: 'tool_search_call', id: 'ts1', execution: 'client', arguments: { paths: ['crm'] } },
  { type: 'tool_search_output', id: 'ts2', execution: 'client', tools: [{ type: 'tool_reference', functionName: 'lookup', namespace: 'crm' }] },
  { type: 'program', callId: 'p1', code: 'print(1)', fingerprint: 'f' },
  { type: 'program_output', callId: 'p1', output: '1', status: 'completed' },
  { type: 'compaction', id: 'cmp_1', encrypted_content: 'ciphertext' },
  { type: 'function_call', callId: 'f1', name: 'lookup', arguments: '{}', caller: { type: 'program', callerId: 'p1' } },
];

describe('protocol schemas for the shell, apply-patch, computer, tool search, program and compaction items', () => {
  it.each(items.map((item) => [item.type, item]))('ModelItem accepts a %s item unchanged', (_type, item) => {
    expect(protocol.ModelItem.parse(item)).toEqual(item);
  });

  it('rejects a computer call without an action, and a compaction without its ciphertext', () => {
    expect(protocol.ComputerUseCallItem.safeParse({ type: 'computer_call', callId: 'c', status: 'completed' }).success).toBe(false);
    expect(protocol.CompactionItem.safeParse({ type: 'compaction', id: 'x' }).success).toBe(false);
    expect(protocol.ShellCallItem.safeParse({ type: 'shell_call', callId: 'c', action: { commands: 'ls' } }).success).toBe(false);
  });

  it('keeps a client tool search executor on the tool without serializing it', () => {
    const tool: HostedTool = { type: 'hosted_tool', name: 'tool_search', providerData: { type: 'tool_search', execution: 'client' } };
    const execute = () => null;
    attachClientToolSearchExecutor(tool, execute);
    expect(getClientToolSearchExecutor(tool)).toBe(execute);
    expect(JSON.parse(JSON.stringify(tool))).toEqual({ type: 'hosted_tool', name: 'tool_search', providerData: { type: 'tool_search', execution: 'client' } });
    expect(getClientToolSearchExecutor({ type: 'hosted_tool', name: 'web_search' })).toBeUndefined();
  });
});
