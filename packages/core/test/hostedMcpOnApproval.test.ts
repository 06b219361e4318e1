import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, RunState, UserError, hostedMcpTool, run, type RunItem } from '../src/index.js';

// Human in the loop, for a remote MCP server: an approval request the tool's `onApproval` decides in
// code, or one decided on the run state before resuming, is answered with an
// `mcp_approval_response` item `{ approve, approval_request_id, reason }` sent back to the model on
// the next turn (the run does not pause); a request nobody decided pauses the run. Each request is
// answered once. (As the reference's hosted MCP approval handling does.)

function request(id: string, server = 'docs', toolName = 'lookup') {
  return {
    type: 'hosted_tool_call' as const,
    id,
    name: 'mcp_approval_request',
    status: 'completed' as const,
    providerData: { type: 'mcp_approval_request', id, server_label: server, name: toolName, arguments: '{}' },
  };
}

const answersIn = (items: readonly RunItem[]) =>
  items
    .filter((item) => item.rawItem.type === 'hosted_tool_call' && item.rawItem.name === 'mcp_approval_response')
    .map((item) => (item.rawItem as { providerData?: unknown }).providerData);

/** The `mcp_approval_response` items the model received in the input of its `n`th call. */
function answersSentOn(model: ScriptedModel, n: number) {
  const input = model.calls[n]!.request.input;
  return (Array.isArray(input) ? input : []).filter((item: any) => item.type === 'hosted_tool_call' && item.name === 'mcp_approval_response').map((item: any) => item.providerData);
}

describe('hostedMcpTool onApproval', () => {
  it('an approval decided in code answers the request and the run goes on without pausing', async () => {
    const asked: string[] = [];
    const server = hostedMcpTool({
      serverLabel: 'docs',
      serverUrl: 'https://docs.example/mcp',
      requireApproval: 'always',
      onApproval: async (_context, item) => {
        asked.push(item.rawItem.type === 'hosted_tool_call' ? String(item.rawItem.id) : '?');
        return { approve: true };
      },
    });
    const model = new ScriptedModel([[request('req-1')], [assistantMessage('found it')]]);
    const result = await run(new Agent({ name: 'Docs', model, tools: [server] }), 'look it up');
    expect(asked).toEqual(['req-1']);
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('found it');
    expect(answersIn(result.newItems)).toEqual([{ approve: true, approval_request_id: 'req-1', reason: undefined }]);
    expect(answersSentOn(model, 1)).toEqual([{ approve: true, approval_request_id: 'req-1' }].map((a) => expect.objectContaining(a)));
  });

  it('a rejection decided in code carries its reason to the model', async () => {
    const server = hostedMcpTool({
      serverLabel: 'docs',
      serverUrl: 'https://docs.example/mcp',
      requireApproval: 'always',
      onApproval: () => ({ approve: false, reason: 'not on weekends' }),
    });
    const model = new ScriptedModel([[request('req-1')], [assistantMessage('skipped')]]);
    const result = await run(new Agent({ name: 'Docs', model, tools: [server] }), 'look it up');
    expect(result.interruptions).toEqual([]);
    expect(answersIn(result.newItems)).toEqual([{ approve: false, approval_request_id: 'req-1', reason: 'not on weekends' }]);
    expect(answersSentOn(model, 1)).toEqual([expect.objectContaining({ approve: false, approval_request_id: 'req-1', reason: 'not on weekends' })]);
  });

  it.each([
    [true, { approved: ['req-1'], rejected: [], messages: {} }],
    [false, { approved: [], rejected: ['req-1'], messages: { 'req-1': 'no' } }],
  ])('the decision in code (approve: %s) is recorded on the run state, with a rejection\'s reason', async (approve, recorded) => {
    const server = hostedMcpTool({
      serverLabel: 'docs',
      serverUrl: 'https://docs.example/mcp',
      requireApproval: 'always',
      onApproval: () => ({ approve, reason: 'no' }),
    });
    const model = new ScriptedModel([[request('req-1')], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'Docs', model, tools: [server] }), 'look it up');
    const decisions = JSON.parse(result.state.toString()).context.hostedMcpApprovals;
    expect(decisions).toEqual({ [JSON.stringify(['hosted_mcp', 'docs', 'lookup'])]: expect.objectContaining(recorded) });
  });

  it.each([
    ['nothing', undefined],
    ['a bare boolean', true],
    ['approve as a string', { approve: 'yes' }],
    ['null', null],
  ])('an onApproval that returns %s fails the run with a UserError naming the server', async (_label, answer) => {
    const server = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://docs.example/mcp', requireApproval: 'always', onApproval: () => answer as never });
    const model = new ScriptedModel([[request('req-1')], [assistantMessage('never')]]);
    const error = await run(new Agent({ name: 'Docs', model, tools: [server] }), 'look it up').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('hostedMcpTool "docs": onApproval must return { approve: boolean, reason? }.');
  });
});

describe('hosted MCP requests decided on the run state', () => {
  const pausedRun = async () => {
    const server = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://docs.example/mcp', requireApproval: 'always' });
    const model = new ScriptedModel([[request('req-1')], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Docs', model, tools: [server] });
    const paused = await run(agent, 'look it up');
    return { agent, model, paused };
  };

  it('a request nobody decided pauses the run with it as the interruption, unanswered', async () => {
    const { model, paused } = await pausedRun();
    expect(paused.interruptions.map((i) => (i.rawItem as { id?: string }).id)).toEqual(['req-1']);
    expect(answersIn(paused.newItems)).toEqual([]);
    expect(model.calls).toHaveLength(1);
  });

  it('a rejection with a message answers with that message as the reason', async () => {
    const { agent, model, paused } = await pausedRun();
    paused.state.reject(paused.interruptions[0]!, { message: 'ask a human first' });
    const resumed = await run(agent, await RunState.fromString(agent, paused.state.toString()));
    expect(resumed.interruptions).toEqual([]);
    expect(answersIn(resumed.newItems)).toEqual([{ approve: false, approval_request_id: 'req-1', reason: 'ask a human first' }]);
    expect(answersSentOn(model, 1)).toEqual([expect.objectContaining({ approve: false, approval_request_id: 'req-1', reason: 'ask a human first' })]);
  });

  it('an approval answers without a reason, once: the resumed turn does not answer it again', async () => {
    const { agent, model, paused } = await pausedRun();
    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(agent, paused.state);
    expect(resumed.finalOutput).toBe('done');
    expect(answersIn(resumed.newItems)).toEqual([{ approve: true, approval_request_id: 'req-1', reason: undefined }]);
    expect(answersSentOn(model, 1)).toHaveLength(1);
  });

  it('of two requests in one turn, the one decided in code is answered at once and not again when the other is decided and the run resumes', async () => {
    let asked = 0;
    const auto = hostedMcpTool({
      serverLabel: 'auto',
      serverUrl: 'https://auto.example/mcp',
      requireApproval: 'always',
      onApproval: () => {
        asked += 1;
        return { approve: true };
      },
    });
    const manual = hostedMcpTool({ serverLabel: 'manual', serverUrl: 'https://manual.example/mcp', requireApproval: 'always' });
    const model = new ScriptedModel([[request('req-auto', 'auto'), request('req-manual', 'manual')], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Two', model, tools: [auto, manual] });
    const paused = await run(agent, 'go');
    expect(paused.interruptions.map((i) => (i.rawItem as { id?: string }).id)).toEqual(['req-manual']);
    expect(answersIn(paused.newItems)).toEqual([{ approve: true, approval_request_id: 'req-auto', reason: undefined }]);
    paused.state.reject(paused.interruptions[0]!, { message: 'no' });
    const resumed = await run(agent, await RunState.fromString(agent, paused.state.toString()));
    expect(asked).toBe(1);
    expect(resumed.finalOutput).toBe('done');
    const sent = answersSentOn(model, 1);
    expect(sent.map((a: { approval_request_id: string; approve: boolean }) => [a.approval_request_id, a.approve])).toEqual([
      ['req-auto', true],
      ['req-manual', false],
    ]);
  });
});
