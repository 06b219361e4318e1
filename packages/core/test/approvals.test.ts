import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunContext, RunToolApprovalItem, UserError, run, tool, type RunStreamEvent } from '../src/index.js';
import { eventLabel, resultText, toolResultsOf } from './helpers.js';

/** A tool that needs approval and counts how often it really ran. */
function guardedTool(needsApproval: boolean | ((ctx: unknown, input: { to: string; amount: number }) => Promise<boolean>) = true) {
  const executed: Array<{ to: string; amount: number }> = [];
  const pay = tool({
    name: 'pay',
    description: 'Send money',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: needsApproval as never,
    execute: (input) => {
      executed.push(input);
      return `paid ${input.amount} to ${input.to}`;
    },
  });
  return { pay, executed };
}

const payCall = (callId: string, amount = 10, to = 'bob') => functionCall('pay', { to, amount }, { callId });

describe('pausing for approval', () => {
  it('does not run the tool and pauses with a ToolApprovalItem interruption', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('c1', 25)], [assistantMessage('never')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const result = await run(agent, 'pay bob 25');

    expect(executed).toEqual([]);
    expect(result.finalOutput).toBeUndefined();
    expect(result.interruptions).toHaveLength(1);
    const item = result.interruptions[0]!;
    expect(item).toBeInstanceOf(RunToolApprovalItem);
    expect(item.type).toBe('tool_approval_item');
    expect(item.toolName).toBe('pay');
    expect(item.name).toBe('pay');
    expect(item.arguments).toBe('{"to":"bob","amount":25}');
    expect(item.callId).toBe('c1');
    expect(item.agent).toBe(agent);
    expect(result.state.getInterruptions()).toEqual(result.interruptions);
    expect(result.state.currentTurn).toBe(1);
    expect(model.calls).toHaveLength(1);
    // The pending approval is in the items, but not in the history sent to a model.
    expect(result.newItems.map((i) => i.type)).toEqual(['tool_call_item', 'tool_approval_item']);
    expect(result.history.map((i) => i.type ?? 'message')).toEqual(['message', 'function_call']);
  });

  it('asks an async needsApproval predicate per call; calls it approves of run at once', async () => {
    const { pay, executed } = guardedTool(async (_ctx, input) => input.amount > 100);
    const model = new ScriptedModel([[payCall('small', 5), payCall('big', 500)], [assistantMessage('paid both')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay');
    expect(executed).toEqual([{ to: 'bob', amount: 5 }]);
    expect(paused.interruptions.map((i) => i.callId)).toEqual(['big']);

    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(agent, paused.state);
    expect(resumed.finalOutput).toBe('paid both');
    // The call that already ran is not run again.
    expect(executed).toEqual([{ to: 'bob', amount: 5 }, { to: 'bob', amount: 500 }]);
    expect(toolResultsOf(model.calls[1]).map((r) => r.callId).sort()).toEqual(['big', 'small']);
  });

  it('a needsApproval replaced after the tool was made is the one asked (the fixed answer it replaced is not read)', async () => {
    const asked: string[] = [];
    const { pay, executed } = guardedTool(false);
    pay.needsApproval = async (_ctx, _input, callId) => (asked.push(String(callId)), true);
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('never')]]);
    const paused = await run(new Agent({ name: 'Banker', model, tools: [pay] }), 'pay');
    expect(asked).toEqual(['c1']);
    expect(executed).toEqual([]);
    expect(paused.interruptions.map((i) => i.callId)).toEqual(['c1']);

    const { pay: open, executed: ran } = guardedTool(true);
    open.needsApproval = async () => false;
    const direct = await run(new Agent({ name: 'Banker', model: new ScriptedModel([[payCall('c2')], [assistantMessage('paid')]]), tools: [open] }), 'pay');
    expect(direct.finalOutput).toBe('paid');
    expect(ran).toEqual([{ to: 'bob', amount: 10 }]);
  });

  it('a fixed needsApproval still answers when called directly, as a promise', async () => {
    const { pay } = guardedTool(true);
    const { pay: open } = guardedTool(false);
    const context = new RunContext({});
    await expect(pay.needsApproval(context, { to: 'bob', amount: 1 }, 'c1')).resolves.toBe(true);
    await expect(open.needsApproval(context, { to: 'bob', amount: 1 }, 'c1')).resolves.toBe(false);
  });

  it('announces tool_approval_requested in a streamed run and pauses it', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('c1')]]);
    const result = await run(new Agent({ name: 'Banker', model, tools: [pay] }), 'pay', { stream: true });
    const labels: string[] = [];
    for await (const event of result) if (event.type === 'run_item_stream_event') labels.push(eventLabel(event));
    await result.completed;
    expect(labels).toEqual(['tool_called', 'tool_approval_requested']);
    expect(result.interruptions.map((i) => i.callId)).toEqual(['c1']);
    expect(result.finalOutput).toBeUndefined();
    expect(executed).toEqual([]);
  });
});

describe('approve and resume', () => {
  it('runs the approved tool without calling the model again for the interrupted response', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('c1', 25)], [assistantMessage('Paid.')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay bob 25');
    paused.state.approve(paused.interruptions[0]!);

    const resumed = await run(agent, paused.state);
    expect(resumed.finalOutput).toBe('Paid.');
    expect(executed).toEqual([{ to: 'bob', amount: 25 }]);
    expect(model.calls).toHaveLength(2); // the first response was reused, only the follow-up is new
    expect(resultText(model.calls[1], 'c1')).toBe('paid 25 to bob');
    expect(resumed.interruptions).toEqual([]);
    expect(resumed.state.currentTurn).toBe(2); // the resume itself is not a turn
    expect(resumed.newItems.map((i) => i.type)).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
  });

  it('accepts { toolName, callId } as well as the item', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('ok')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay');
    paused.state.approve({ toolName: 'pay', callId: 'c1' });
    await run(agent, paused.state);
    expect(executed).toHaveLength(1);
  });

  it('resumes a streamed run from a paused state', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('Paid.')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay');
    paused.state.approve(paused.interruptions[0]!);

    const resumed = await run(agent, paused.state, { stream: true });
    const events: RunStreamEvent[] = [];
    for await (const event of resumed) events.push(event);
    await resumed.completed;
    expect(events.map(eventLabel)).toEqual(['tool_output', 'raw:response_started', 'raw:output_text_delta', 'raw:response_done', 'message_output_created']);
    expect(resumed.finalOutput).toBe('Paid.');
    expect(executed).toHaveLength(1);
    expect(model.calls.map((c) => c.streamed)).toEqual([false, true]);
  });

  it('running a state that already has its final output checks that output again, without a model call (as the reference)', async () => {
    const model = new ScriptedModel([[assistantMessage('done')]]);
    let checks = 0;
    const agent = new Agent({ name: 'A', model, outputGuardrails: [{ name: 'count', execute: () => ({ tripwireTriggered: false, outputInfo: ++checks }) }] });
    const result = await run(agent, 'go');
    const again = await run(agent, result.state);
    expect(again.finalOutput).toBe('done');
    expect(model.calls).toHaveLength(1);
    expect(checks).toBe(2);
  });
});

describe('reject', () => {
  it.each([
    ['without a message: the default text', undefined, 'Tool execution was not approved.'],
    ['with a message: that text', 'The manager said no.', 'The manager said no.'],
  ])('sends the model the rejection as the tool output, %s', async (_label, message, expected) => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('Understood, not paying.')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay');
    paused.state.reject(paused.interruptions[0]!, message === undefined ? {} : { message });

    const resumed = await run(agent, paused.state);
    expect(executed).toEqual([]);
    expect(resumed.finalOutput).toBe('Understood, not paying.');
    expect(resultText(model.calls[1], 'c1')).toBe(expected);
    const output = resumed.newItems.find((i) => i.type === 'tool_call_output_item');
    expect(output?.type === 'tool_call_output_item' && output.output).toBe(expected);
  });

  it('alwaysReject rejects later calls of the tool without asking again', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('c1')], [payCall('c2')], [assistantMessage('giving up')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay');
    paused.state.reject(paused.interruptions[0]!, { alwaysReject: true, message: 'Never.' });
    const resumed = await run(agent, paused.state);
    expect(resumed.interruptions).toEqual([]);
    expect(resumed.finalOutput).toBe('giving up');
    expect(executed).toEqual([]);
    expect(resultText(model.calls[2], 'c2')).toBe('Never.');
  });
});

describe('alwaysApprove', () => {
  it('applies to later calls of the same tool in later turns', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([
      [payCall('c1', 1)],
      [payCall('c2', 2)],
      [payCall('c3', 3), payCall('c4', 4)],
      [assistantMessage('all paid')],
    ]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay');
    paused.state.approve(paused.interruptions[0]!, { alwaysApprove: true });

    const resumed = await run(agent, paused.state);
    expect(resumed.interruptions).toEqual([]);
    expect(resumed.finalOutput).toBe('all paid');
    expect(executed.map((e) => e.amount)).toEqual([1, 2, 3, 4]);
    expect(resumed.state.currentTurn).toBe(4);
  });

  it('a plain approval covers only that call: the next call pauses again', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('c1', 1)], [payCall('c2', 2)], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const first = await run(agent, 'pay');
    first.state.approve(first.interruptions[0]!);
    const second = await run(agent, first.state);
    expect(executed.map((e) => e.amount)).toEqual([1]);
    expect(second.interruptions.map((i) => i.callId)).toEqual(['c2']);
    expect(second.state.currentTurn).toBe(2);
    second.state.approve(second.interruptions[0]!);
    const third = await run(agent, second.state);
    expect(third.finalOutput).toBe('done');
    expect(executed.map((e) => e.amount)).toEqual([1, 2]);
    expect(model.calls).toHaveLength(3);
  });
});

describe('per-call decisions beat a later sticky one', () => {
  it('a call rejected before alwaysApprove on its sibling stays rejected', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('x', 1), payCall('y', 2)], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay');
    const [x, y] = paused.interruptions;
    paused.state.reject(x!, { message: 'not x' });
    paused.state.approve(y!, { alwaysApprove: true });
    await run(agent, paused.state);
    expect(executed.map((e) => e.amount)).toEqual([2]);
    expect(resultText(model.calls[1], 'x')).toBe('not x');
  });

  it('a call approved before alwaysReject on its sibling stays approved', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('x', 1), payCall('y', 2)], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay');
    const [x, y] = paused.interruptions;
    paused.state.approve(x!);
    paused.state.reject(y!, { alwaysReject: true });
    await run(agent, paused.state);
    expect(executed.map((e) => e.amount)).toEqual([1]);
    expect(resultText(model.calls[1], 'y')).toBe('Tool execution was not approved.');
  });
});

describe('partial decisions', () => {
  it('keeps undecided items pending and does not call the model until all are decided', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('a', 1), payCall('b', 2), payCall('c', 3)], [assistantMessage('finished')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay three');
    expect(paused.interruptions.map((i) => i.callId)).toEqual(['a', 'b', 'c']);

    const [a, b, c] = paused.interruptions;
    paused.state.approve(a!);
    paused.state.reject(b!, { message: 'not b' });
    const stillPaused = await run(agent, paused.state);
    expect(stillPaused.interruptions.map((i) => i.callId)).toEqual(['c']);
    expect(stillPaused.state.getInterruptions().map((i) => i.callId)).toEqual(['c']);
    expect(executed.map((e) => e.amount)).toEqual([1]);
    expect(model.calls).toHaveLength(1);
    expect(stillPaused.state.currentTurn).toBe(1);
    // One pending approval item, not a duplicate per resume.
    expect(stillPaused.newItems.filter((i) => i.type === 'tool_approval_item')).toHaveLength(1);

    stillPaused.state.approve(c!);
    const done = await run(agent, stillPaused.state);
    expect(done.finalOutput).toBe('finished');
    expect(executed.map((e) => e.amount)).toEqual([1, 3]); // a is not run twice
    expect(model.calls).toHaveLength(2);
    expect(done.state.currentTurn).toBe(2);
    // Outputs are recorded as they complete, so compare them by call id.
    const outputs = Object.fromEntries(toolResultsOf(model.calls[1]).map((r) => [r.callId, resultText(model.calls[1], r.callId)]));
    expect(outputs).toEqual({ a: 'paid 1 to bob', b: 'not b', c: 'paid 3 to bob' });
    expect(toolResultsOf(model.calls[1])).toHaveLength(3);
  });

  it('resuming with nothing decided pauses again with the same items, without calling the model', async () => {
    const { pay, executed } = guardedTool(true);
    const model = new ScriptedModel([[payCall('c1')]]);
    const agent = new Agent({ name: 'Banker', model, tools: [pay] });
    const paused = await run(agent, 'pay');
    const again = await run(agent, paused.state);
    expect(again.interruptions.map((i) => i.callId)).toEqual(['c1']);
    expect(executed).toEqual([]);
    expect(model.calls).toHaveLength(1);
  });
});

describe('sticky decisions after exact ones', () => {
  it('keeps a call approved one by one when the tool is later always-rejected', () => {
    const context = new RunContext();
    context.approveTool({ toolName: 'send', callId: 'a' });
    context.rejectTool({ toolName: 'send', callId: 'b' }, { alwaysReject: true });
    expect(context.isToolApproved({ toolName: 'send', callId: 'a' })).toBe(true);
    expect(context.isToolApproved({ toolName: 'send', callId: 'b' })).toBe(false);
    expect(context.isToolApproved({ toolName: 'send', callId: 'c' })).toBe(false);
    context.approveTool({ toolName: 'send', callId: 'd' }, { alwaysApprove: true });
    expect(context.isToolApproved({ toolName: 'send', callId: 'b' })).toBe(false);
    expect(context.isToolApproved({ toolName: 'send', callId: 'c' })).toBe(true);
  });
});
