import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, RunContext, RunState, RunToolApprovalItem, UserError, hostedMcpTool, run } from '../src/index.js';

// A remote MCP server's approval requests are decided per server and remote tool: "always approve
// lookup" said to server A is no answer to server B asking for its own `lookup`, and no local tool
// of a colliding name reads or writes those decisions.

const agent = new Agent({ name: 'Owner' });

/** An approval request as the Responses API sends it. */
function request(id: string, server: string, toolName = 'lookup') {
  return {
    type: 'hosted_tool_call' as const,
    id,
    name: 'mcp_approval_request',
    status: 'completed' as const,
    providerData: { type: 'mcp_approval_request', id, server_label: server, name: toolName, arguments: '{}' },
  };
}

const approvalOf = (raw: object, toolName?: string) => new RunToolApprovalItem(raw as never, agent, toolName);

describe('RunContext: MCP approval decisions', () => {
  it('a sticky approval holds for the server and remote tool it was given for, and for no other', () => {
    const ctx = new RunContext();
    ctx.approveTool(approvalOf(request('r1', 'server-a')), { alwaysApprove: true });

    expect(ctx._getHostedMcpApprovalStatus(approvalOf(request('r2', 'server-a')))).toBe(true);
    expect(ctx._getHostedMcpApprovalStatus(approvalOf(request('r3', 'server-b')))).toBeUndefined();
    expect(ctx._getHostedMcpApprovalStatus(approvalOf(request('r4', 'server-a', 'delete')))).toBeUndefined();
    // No tool named `lookup` (or named after the scoped key) is approved by it.
    expect(ctx.isToolApproved({ toolName: 'lookup', callId: 'r2' })).toBeUndefined();
    expect(ctx.isToolApproved({ toolName: JSON.stringify(['hosted_mcp', 'server-a', 'lookup']), callId: 'r2' })).toBeUndefined();
  });

  it('reads the realtime shape (item id, camel-cased server label) and keeps rejection messages to MCP requests', () => {
    const ctx = new RunContext();
    const realtime = approvalOf({
      type: 'hosted_tool_call',
      id: 'output-item',
      name: 'lookup',
      status: 'in_progress',
      providerData: { type: 'mcp_approval_request', itemId: 'item-7', serverLabel: 'server-a' },
    });
    ctx.rejectTool(realtime, { alwaysReject: true, message: 'Not on this server.' });

    expect(ctx._getHostedMcpApprovalStatus(realtime)).toBe(false);
    expect(ctx._getHostedMcpRejectionMessage(realtime)).toBe('Not on this server.');
    expect(ctx.getRejectionMessage('lookup', 'item-7')).toBeUndefined();
    expect(ctx.getHostedMcpApprovals()).toHaveProperty([JSON.stringify(['hosted_mcp', 'server-a', 'lookup'])]);
    // The public JSON lists it under the remote tool's name, as the reference shows it.
    expect(ctx.toJSON().approvals.lookup?.rejected).toBe(true);
    expect(ctx.toJSON()).not.toHaveProperty('hostedMcpApprovals');
  });

  it('ignores decisions stored under the bare tool name or a key that merely looks scoped', () => {
    const ctx = new RunContext();
    ctx.setApprovals({ lookup: { approved: true, rejected: [] }, [JSON.stringify(['hosted_mcp', 'server-a', 'lookup'])]: { approved: true, rejected: [] } });
    expect(ctx._getHostedMcpApprovalStatus(approvalOf(request('r1', 'server-a')))).toBeUndefined();
  });

  it('refuses a decision it could not scope, saying why', () => {
    const ctx = new RunContext();
    const noServer = approvalOf({ type: 'hosted_tool_call', id: 'r1', name: 'lookup', providerData: { type: 'mcp_approval_request', id: 'r1' } });
    expect(() => ctx.approveTool(noServer)).toThrow(new UserError('Hosted MCP approval decisions require a non-empty server label and tool name.'));
    expect(() => ctx.rejectTool(noServer)).toThrow(UserError);

    const otherHosted = approvalOf({ type: 'hosted_tool_call', id: 'ws1', name: 'web_search', providerData: { type: 'web_search_call' } });
    expect(() => ctx.approveTool(otherHosted, { alwaysApprove: true })).toThrow(
      'Persistent hosted approval decisions require valid MCP approval request provider data.',
    );
    expect(ctx.getApprovals()).toEqual({});
    // Decided once, such a call is approved like any other.
    ctx.approveTool(otherHosted);
    expect(ctx.isToolApproved({ toolName: 'web_search', callId: 'ws1', functionTool: false } as never)).toBe(true);
  });
});

describe('RunState: MCP approval decisions', () => {
  it('refuses one it could not keep before asking whether the request is pending, and records nothing', () => {
    const state = new RunState(new RunContext(), 'input', agent, 1);
    const noServer = approvalOf({ type: 'hosted_tool_call', id: 'r1', name: 'lookup', providerData: { type: 'mcp_approval_request', id: 'r1', name: 'lookup' } });
    expect(() => state.approve(noServer)).toThrow('Hosted MCP approval decisions require a non-empty server label and tool name.');
    expect(() => state.reject(noServer)).toThrow('Hosted MCP approval decisions require a non-empty server label and tool name.');
    expect(state.toJSON().context.approvals).toEqual({});
  });
});

describe('runs: MCP approvals across servers', () => {
  function twoServerAgent() {
    const model = new ScriptedModel([[request('req-a', 'server-a')], [request('req-b', 'server-b')], [assistantMessage('done')]]);
    const servers = ['server-a', 'server-b'].map((label) => hostedMcpTool({ serverLabel: label, serverUrl: `https://${label}.example/mcp`, requireApproval: 'always' }));
    return new Agent({ name: 'TwoServers', model, tools: servers });
  }

  it('tells remote MCP servers apart by their label: two tools for one label are refused', () => {
    const server = (url: string) => hostedMcpTool({ serverLabel: 'docs', serverUrl: url });
    expect(() => new Agent({ name: 'Twice', tools: [server('https://a.example/mcp'), server('https://b.example/mcp')] })).toThrow(
      new UserError('Agent "Twice": two hostedMcpTool()s for the server label "docs" in `tools`; give each server its own label.'),
    );
  });

  it.each([false, true])('an "always approve" for server A does not answer server B (stream: %s), across a serialization', async (stream) => {
    const agent = twoServerAgent();
    const go = async (input: string | RunState<unknown, Agent>) => {
      if (!stream) return run(agent, input);
      const result = await run(agent, input, { stream: true });
      await result.completed;
      return result;
    };
    const first = await go('look it up');
    expect(first.interruptions.map((i) => (i.rawItem.providerData as { server_label: string }).server_label)).toEqual(['server-a']);
    first.state.approve(first.interruptions[0]!, { alwaysApprove: true });

    const text = first.state.toString();
    expect(JSON.parse(text).context.hostedMcpApprovals).toEqual({
      [JSON.stringify(['hosted_mcp', 'server-a', 'lookup'])]: expect.objectContaining({ approved: true }),
    });
    const second = await go(await RunState.fromString(agent, text));
    expect(second.interruptions.map((i) => (i.rawItem.providerData as { server_label: string }).server_label)).toEqual(['server-b']);
    // Server A's request was answered with an approval on the way.
    const answers = second.newItems.filter((item) => item.rawItem.type === 'hosted_tool_call' && item.rawItem.name === 'mcp_approval_response');
    expect(answers.map((item) => item.rawItem.providerData)).toEqual([expect.objectContaining({ approve: true, approval_request_id: 'req-a' })]);
  });
});
