import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent, RunState, hostedMcpTool, run } from '@baton/core';
import { ScriptedModel, functionCall, type ScriptedModelInput } from '@baton/testing';
import { approvalRecords, inspectRunState, setApprovalExpiries } from '../src/index.js';
import { Executions, approvalTool, echoOutputs, toolOutputsIn } from './support/scenarios.js';

/** A banker with a `pay` tool that always needs approval; the script decides the calls. */
function banker(script: ScriptedModelInput[]) {
  const executions = new Executions();
  const model = new ScriptedModel(script);
  const agent = new Agent({ name: 'Banker', model, tools: [approvalTool('pay', executions)] });
  return { agent, model, executions };
}

const pay = (callId: string, target = callId) => functionCall('pay', { target }, { callId });
const threeCalls: ScriptedModelInput = [pay('a'), pay('b'), pay('c')];

/** Pause in one "process", then hand the string to a fresh graph scripted for the rest. */
async function pausedText(script: ScriptedModelInput[]): Promise<string> {
  const { agent } = banker(script);
  const paused = await run(agent, 'pay a, b and c');
  return paused.state.toString();
}

async function restore(text: string, rest: ScriptedModelInput[]) {
  const next = banker(rest);
  return { ...next, state: await RunState.fromString(next.agent, text) };
}

afterEach(() => vi.useRealTimers());

describe('decisions across a serialization', () => {
  it('approve and reject (with and without a message) reach the model after a round trip', async () => {
    const { state } = await restore(await pausedText([threeCalls]), []);
    const [a, b, c] = state.getInterruptions();
    state.approve(a!);
    state.reject(b!, { message: 'b is not allowed' });
    state.reject(c!);
    // Decided in one process, resumed in another.
    const next = await restore(state.toString(), [echoOutputs('Done')]);
    const done = await run(next.agent, next.state);
    expect(next.executions.calls).toEqual(['pay:a']);
    expect(toolOutputsIn(next.model.calls[0]!.request)).toEqual({ a: 'pay done for a', b: 'b is not allowed', c: 'Tool execution was not approved.' });
    expect(done.finalOutput).toContain('pay done for a');
  });

  it('alwaysApprove and alwaysReject stay sticky in later turns after a round trip, with the sticky message', async () => {
    const approveAll = await restore(await pausedText([[pay('a')]]), []);
    approveAll.state.approve(approveAll.state.getInterruptions()[0]!, { alwaysApprove: true });
    const next = await restore(approveAll.state.toString(), [[pay('b')], [pay('c'), pay('d')], echoOutputs('Done')]);
    const done = await run(next.agent, next.state);
    expect(done.interruptions).toEqual([]);
    expect(next.executions.calls).toEqual(['pay:a', 'pay:b', 'pay:c', 'pay:d']);

    const rejectAll = await restore(await pausedText([[pay('a')]]), []);
    rejectAll.state.reject(rejectAll.state.getInterruptions()[0]!, { alwaysReject: true, message: 'No payments this week.' });
    const later = await restore(rejectAll.state.toString(), [[pay('b')], echoOutputs('Done')]);
    await run(later.agent, later.state);
    expect(later.executions.calls).toEqual([]);
    expect(toolOutputsIn(later.model.calls[1]!.request)).toEqual({ a: 'No payments this week.', b: 'No payments this week.' });
  });

  it('an exact decision beats a later sticky one after a round trip', async () => {
    const { state } = await restore(await pausedText([threeCalls]), []);
    const [a, b] = state.getInterruptions();
    state.reject(a!, { message: 'not a' });
    state.approve(b!, { alwaysApprove: true });
    const next = await restore(state.toString(), [echoOutputs('Done')]);
    await run(next.agent, next.state);
    expect(next.executions.calls).toEqual(['pay:b', 'pay:c']);
    expect(toolOutputsIn(next.model.calls[0]!.request).a).toBe('not a');
  });
});

describe('partial approvals', () => {
  it('resolves the decided calls, keeps the rest pending, across repeated round trips, running each call once', async () => {
    let text = await pausedText([threeCalls]);
    // Round 1: decide a only.
    let step = await restore(text, []);
    step.state.approve(step.state.getInterruptions().find((i) => i.callId === 'a')!);
    let result = await run(step.agent, step.state);
    expect(result.interruptions.map((i) => i.callId)).toEqual(['b', 'c']);
    expect(step.executions.calls).toEqual(['pay:a']);
    expect(step.model.calls).toHaveLength(0);
    expect(result.state.currentTurn).toBe(1);
    text = result.state.toString();
    expect(inspectRunState(text)).toMatchObject({ status: 'interrupted', pendingApprovals: [{ callId: 'b' }, { callId: 'c' }] });

    // Round 2: reject c.
    step = await restore(text, []);
    step.state.reject(step.state.getInterruptions().find((i) => i.callId === 'c')!, { message: 'not c' });
    result = await run(step.agent, step.state);
    expect(result.interruptions.map((i) => i.callId)).toEqual(['b']);
    expect(step.executions.calls).toEqual([]);
    text = result.state.toString();

    // Round 3: approve b; the model runs once with all three outputs.
    step = await restore(text, [echoOutputs('Done')]);
    step.state.approve(step.state.getInterruptions()[0]!);
    result = await run(step.agent, step.state);
    expect(step.executions.calls).toEqual(['pay:b']);
    expect(toolOutputsIn(step.model.calls[0]!.request)).toEqual({ a: 'pay done for a', b: 'pay done for b', c: 'not c' });
    expect(result.state.currentTurn).toBe(2);
    expect(result.newItems.filter((i) => i.type === 'tool_call_output_item')).toHaveLength(3);
  });
});

describe('approval records: who, when, why', () => {
  it('serialize with the state and are listed without an agent graph', async () => {
    const { state } = await restore(await pausedText([threeCalls]), []);
    const [a, b] = state.getInterruptions();
    state.approve(a!, { decidedBy: 'alice@example.com', reason: 'within budget', decidedAt: '2025-03-01T10:00:00.000Z' });
    state.reject(b!, { decidedBy: 'bob@example.com', reason: 'duplicate', message: 'Duplicate payment.', decidedAt: '2025-03-01T10:05:00.000Z' });
    const text = state.toString();
    const records = approvalRecords(text);
    expect(records).toEqual([
      {
        toolName: 'pay',
        callId: 'a',
        status: 'approved',
        pending: true,
        agent: { name: 'Banker' },
        arguments: '{"target":"a"}',
        nestedIn: [],
        decidedBy: 'alice@example.com',
        decidedAt: '2025-03-01T10:00:00.000Z',
        reason: 'within budget',
        sticky: false,
      },
      {
        toolName: 'pay',
        callId: 'b',
        status: 'rejected',
        pending: true,
        agent: { name: 'Banker' },
        arguments: '{"target":"b"}',
        nestedIn: [],
        decidedBy: 'bob@example.com',
        decidedAt: '2025-03-01T10:05:00.000Z',
        reason: 'duplicate',
        sticky: false,
        message: 'Duplicate payment.',
      },
      { toolName: 'pay', callId: 'c', status: 'pending', pending: true, agent: { name: 'Banker' }, arguments: '{"target":"c"}', nestedIn: [] },
    ]);
    // The same from the live state and from the restored one.
    expect(approvalRecords(state)).toEqual(records);
    const restored = await restore(text, []);
    expect(restored.state.context.getApprovalDecision({ toolName: 'pay', callId: 'a' })).toEqual({
      approved: true,
      decidedBy: 'alice@example.com',
      reason: 'within budget',
      decidedAt: '2025-03-01T10:00:00.000Z',
      sticky: false,
    });

    // After resuming, past decisions stay listed (not pending) as an audit trail.
    restored.state.approve(restored.state.getInterruptions()[2]!, { decidedBy: 'carol' });
    const next = await restore(restored.state.toString(), [echoOutputs('Done')]);
    const done = await run(next.agent, next.state);
    expect(approvalRecords(done.state).map((r) => [r.callId, r.status, r.pending, r.decidedBy])).toEqual([
      ['a', 'approved', false, 'alice@example.com'],
      ['b', 'rejected', false, 'bob@example.com'],
      ['c', 'approved', false, 'carol'],
    ]);
  });

  it('decidedAt defaults to the time of the decision', async () => {
    vi.useFakeTimers({ now: new Date('2025-05-05T05:05:05.000Z'), toFake: ['Date'] });
    const { state } = await restore(await pausedText([[pay('a')]]), []);
    state.approve(state.getInterruptions()[0]!, { decidedBy: 'dave' });
    expect(approvalRecords(state.toString())[0]).toMatchObject({ decidedAt: '2025-05-05T05:05:05.000Z', decidedBy: 'dave' });
  });
});

describe('approval expiry', () => {
  it('an expired request is rejected on resume with a clear message, and the tool does not run', async () => {
    vi.useFakeTimers({ now: new Date('2025-01-01T00:00:00.000Z'), toFake: ['Date'] });
    const { state } = await restore(await pausedText([threeCalls]), []);
    expect(setApprovalExpiries(state, { ttlMs: 60 * 60_000 })).toBe(3);
    state.approve(state.getInterruptions()[0]!, { decidedBy: 'erin' }); // in time
    const text = state.toString();
    expect(inspectRunState(text)).toMatchObject({ pendingApprovals: [{ callId: 'a', status: 'approved', expiresAt: '2025-01-01T01:00:00.000Z' }, { callId: 'b', status: 'pending' }, { callId: 'c', status: 'pending' }] });

    // Two hours later, in another process.
    vi.setSystemTime(new Date('2025-01-01T02:00:00.000Z'));
    const next = await restore(text, [echoOutputs('Done')]);
    const b = next.state.getInterruptions()[1]!;
    expect(() => next.state.approve(b)).toThrow(/expired at 2025-01-01T01:00:00.000Z/);
    expect(approvalRecords(next.state).map((r) => [r.callId, r.status])).toEqual([
      ['a', 'approved'],
      ['b', 'expired'],
      ['c', 'expired'],
    ]);
    next.state.reject(next.state.getInterruptions()[2]!, { message: 'Too late anyway.' }); // a rejection is still recorded
    const done = await run(next.agent, next.state);
    expect(done.interruptions).toEqual([]);
    expect(next.executions.calls).toEqual(['pay:a']);
    const outputs = toolOutputsIn(next.model.calls[0]!.request);
    expect(outputs.a).toBe('pay done for a');
    expect(outputs.b).toBe('The approval request for tool "pay" (call b) expired at 2025-01-01T01:00:00.000Z before it was approved; the call was treated as rejected.');
    expect(outputs.c).toBe('Too late anyway.');
  });

  it('a request that has not expired yet stays pending', async () => {
    vi.useFakeTimers({ now: new Date('2025-01-01T00:00:00.000Z'), toFake: ['Date'] });
    const { state } = await restore(await pausedText([[pay('a')]]), []);
    state.setApprovalExpiry(state.getInterruptions()[0]!, '2025-01-02T00:00:00Z');
    const next = await restore(state.toString(), []);
    const again = await run(next.agent, next.state);
    expect(again.interruptions.map((i) => i.callId)).toEqual(['a']);
    expect(next.executions.calls).toEqual([]);
    expect(approvalRecords(again.state)[0]).toMatchObject({ status: 'pending', expiresAt: '2025-01-02T00:00:00.000Z' });
  });
});

describe('approving what is not pending', () => {
  it('is a RunStateError naming the call and the pending ones, and changes nothing', async () => {
    const text = await pausedText([threeCalls]);
    const { state } = await restore(text, []);
    expect(() => state.approve({ toolName: 'pay', callId: 'zzz' })).toThrow(
      'Cannot approve tool "pay" call zzz: it is not waiting for approval in this run state. Pending approvals: pay (call a), pay (call b), pay (call c).',
    );
    expect(() => state.reject({ toolName: 'refund', callId: 'a' })).toThrow(expect.objectContaining({ name: 'RunStateError', reason: 'approval_not_pending' }));
    expect(state.toString()).toBe(text);
  });
});

describe('approval records of remote MCP servers’ requests', () => {
  /** An approval request as the Responses API sends it. */
  const mcpRequest = (id: string, server: string) => ({
    type: 'hosted_tool_call' as const,
    id,
    name: 'mcp_approval_request',
    status: 'completed' as const,
    providerData: { type: 'mcp_approval_request', id, server_label: server, name: 'lookup', arguments: '{}' },
  });

  it('show the decision made for that server (kept per server and remote tool), before and after serialization', async () => {
    const model = new ScriptedModel([[mcpRequest('req-a', 'server-a')]]);
    const agent = new Agent({ name: 'Docs', model, tools: [hostedMcpTool({ serverLabel: 'server-a', serverUrl: 'https://a.example/mcp', requireApproval: 'always' })] });
    const paused = await run(agent, 'look it up');
    expect(approvalRecords(paused.state)).toEqual([expect.objectContaining({ callId: 'req-a', status: 'pending', pending: true })]);

    paused.state.approve(paused.interruptions[0]!, { decidedBy: 'erin', reason: 'read only' });
    const expected = expect.objectContaining({ toolName: paused.interruptions[0]!.toolName, callId: 'req-a', status: 'approved', pending: true, decidedBy: 'erin', reason: 'read only' });
    expect(approvalRecords(paused.state)).toEqual([expected]);
    expect(approvalRecords(paused.state.toString())).toEqual([expected]);
  });
});
