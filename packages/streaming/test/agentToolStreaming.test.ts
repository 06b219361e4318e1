import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, run, tool, type RunStreamEvent, type ToolStreamEndEvent } from '@baton/core';
import { notify, streamingTool, toEventJSON, unwrapStreamingToolContext } from '../src/index.js';
import { collect, inputOf, label, labels, resultText } from './helpers.js';

/**
 * Three levels: Orchestrator → `research` (Researcher as a streaming tool) → `ask_searcher`
 * (Searcher as a streaming tool) → `search` (a streaming tool).
 */
function threeLevels() {
  const searched: string[] = [];
  const search = streamingTool({
    name: 'search',
    description: 'Searches',
    parameters: z.object({ q: z.string() }),
    async *execute({ q }) {
      searched.push(q);
      yield notify(`searching ${q}`);
      return `3 results for ${q}`;
    },
  });
  const searcherModel = new ScriptedModel([[functionCall('search', { q: 'llamas' }, { callId: 's1' })], [assistantMessage('found: 3 results')]]);
  const searcher = new Agent({ name: 'Searcher', model: searcherModel, tools: [search] });
  const researcherModel = new ScriptedModel([
    [functionCall('ask_searcher', { input: 'find llamas' }, { callId: 'r1' })],
    [assistantMessage('research: llamas are common')],
  ]);
  const researcher = new Agent({
    name: 'Researcher',
    model: researcherModel,
    tools: [searcher.asTool({ toolName: 'ask_searcher', toolDescription: 'Ask the searcher', streaming: true })],
  });
  const outerModel = new ScriptedModel([[functionCall('research', { input: 'llamas' }, { callId: 'o1' })], [assistantMessage('Llamas are common.')]]);
  const orchestrator = new Agent({
    name: 'Orchestrator',
    model: outerModel,
    tools: [researcher.asTool({ toolName: 'research', toolDescription: 'Research a topic', streaming: true })],
  });
  return { orchestrator, outerModel, researcherModel, searcherModel, searched };
}

describe('agent.asTool({ streaming: true }) at any depth', () => {
  it('wraps each nested level once more; notify/start/end pass through unwrapped', async () => {
    const { orchestrator } = threeLevels();
    const result = await run(orchestrator, 'tell me about llamas', { stream: true });
    const events = await collect(result);
    await result.completed;

    expect(labels(events)).toEqual([
      'tool_called',
      'start(research)',
      'ctx(research)>tool_called',
      'start(ask_searcher)',
      'ctx(research)>ctx(ask_searcher)>tool_called',
      'start(search)',
      'notify(search):"searching llamas"',
      'end(search)',
      'ctx(research)>ctx(ask_searcher)>tool_output',
      'ctx(research)>ctx(ask_searcher)>message_output_created',
      'end(ask_searcher)',
      'ctx(research)>tool_output',
      'ctx(research)>message_output_created',
      'end(research)',
      'tool_output',
      'message_output_created',
    ]);
    // Raw model events of the nested runs arrive wrapped too (typing effect inside the panel).
    expect(events.map(label)).toContain('ctx(research)>ctx(ask_searcher)>raw:output_text_delta');
    expect(events.filter((e) => e.type === 'raw_model_stream_event').length).toBeGreaterThan(0);

    // The wrapping path and the inner agent, as a UI needs them.
    const deepest = events.find((e) => label(e) === 'ctx(research)>ctx(ask_searcher)>message_output_created')!;
    const { path, event } = unwrapStreamingToolContext(deepest);
    expect(path).toEqual([
      { toolName: 'research', toolCallId: 'o1' },
      { toolName: 'ask_searcher', toolCallId: 'r1' },
    ]);
    expect(event.type === 'run_item_stream_event' && event.item.agent.name).toBe('Searcher');
    expect(unwrapStreamingToolContext(events[0]!).path).toEqual([]);
  });

  it('isolates every level: each history and each model input holds only the tool output below it', async () => {
    const { orchestrator, outerModel, researcherModel, searcherModel } = threeLevels();
    const result = await run(orchestrator, 'tell me about llamas', { stream: true });
    await collect(result);
    await result.completed;

    expect(result.history.map((i) => i.type ?? 'message')).toEqual(['message', 'function_call', 'function_call_result', 'message']);
    expect(result.newItems.every((item) => item.agent.name === 'Orchestrator')).toBe(true);
    expect(resultText(outerModel.calls[1], 'o1')).toBe('research: llamas are common');
    expect(JSON.stringify(inputOf(outerModel.calls[1]))).not.toMatch(/searching|3 results|found:/);
    expect(resultText(researcherModel.calls[1], 'r1')).toBe('found: 3 results');
    expect(JSON.stringify(inputOf(researcherModel.calls[1]))).not.toContain('searching');
    expect(resultText(searcherModel.calls[1], 's1')).toBe('3 results for llamas');
    expect(result.state.toString()).not.toContain('searching llamas');
  });

  it('works in a non-streamed outer run (nested events dropped, outputs kept)', async () => {
    const { orchestrator, outerModel, searched } = threeLevels();
    const result = await run(orchestrator, 'tell me about llamas');
    expect(result.finalOutput).toBe('Llamas are common.');
    expect(searched).toEqual(['llamas']);
    expect(resultText(outerModel.calls[1], 'o1')).toBe('research: llamas are common');
  });
});

describe('approvals inside a streaming agent tool', () => {
  function payroll() {
    const paid: string[] = [];
    const pay = tool({
      name: 'pay',
      description: '',
      parameters: z.object({ to: z.string() }),
      needsApproval: true,
      execute: ({ to }) => {
        paid.push(to);
        return `paid ${to}`;
      },
    });
    const innerModel = new ScriptedModel([[functionCall('pay', { to: 'bob' }, { callId: 'p1' })], [assistantMessage('Bob is paid.')]]);
    const treasurer = new Agent({ name: 'Treasurer', model: innerModel, tools: [pay] });
    const outerModel = new ScriptedModel([[functionCall('treasury', { input: 'pay bob' }, { callId: 't1' })], [assistantMessage('Done.')]]);
    const boss = new Agent({ name: 'Boss', model: outerModel, tools: [treasurer.asTool({ toolName: 'treasury', streaming: true })] });
    return { paid, boss, innerModel, outerModel };
  }

  it('surface as interruptions of the outer streamed run, shown wrapped in its stream; resuming finishes the nested run', async () => {
    const { paid, boss, outerModel } = payroll();
    const paused = await run(boss, 'pay bob', { stream: true });
    const first = await collect(paused);
    await paused.completed;

    expect(labels(first)).toEqual(['tool_called', 'start(treasury)', 'ctx(treasury)>tool_called', 'ctx(treasury)>tool_approval_requested', 'end(treasury)']);
    expect(paused.interruptions.map((i) => [i.toolName, i.callId, i.agent.name])).toEqual([['pay', 'p1', 'Treasurer']]);
    expect(paid).toEqual([]);
    expect(outerModel.calls).toHaveLength(1);
    // The wire form of the paused call's end event says it paused; it carries no nested run state.
    const end = first.find((e): e is ToolStreamEndEvent => e.type === 'tool_stream_end_event')!;
    const json = toEventJSON(end);
    expect(json).toMatchObject({ event_type: 'tool_stream_end_event', toolCallId: 't1', interrupted: true });
    expect(json).not.toHaveProperty('output');

    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(boss, paused.state, { stream: true });
    const second = await collect(resumed);
    await resumed.completed;
    expect(labels(second)).toEqual([
      'start(treasury)',
      'ctx(treasury)>tool_output',
      'ctx(treasury)>message_output_created',
      'end(treasury)',
      'tool_output',
      'message_output_created',
    ]);
    expect(paid).toEqual(['bob']);
    expect(resumed.finalOutput).toBe('Done.');
    expect(resultText(outerModel.calls[1], 't1')).toBe('Bob is paid.');
  });

  it('surface from two levels down as interruptions of the outer run', async () => {
    const { boss: middle } = payroll();
    const outerModel = new ScriptedModel([[functionCall('middle', { input: 'pay bob' }, { callId: 'm1' })], [assistantMessage('All paid.')]]);
    const top = new Agent({ name: 'Top', model: outerModel, tools: [middle.asTool({ toolName: 'middle', streaming: true })] });
    const paused = await run(top, 'pay bob', { stream: true });
    const events = await collect(paused);
    await paused.completed;
    expect(events.map(label)).toContain('ctx(middle)>ctx(treasury)>tool_approval_requested');
    expect(paused.interruptions.map((i) => i.callId)).toEqual(['p1']);

    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(top, paused.state, { stream: true });
    await collect(resumed);
    await resumed.completed;
    expect(resumed.finalOutput).toBe('All paid.');
    expect(resultText(outerModel.calls[1], 'm1')).toBe('Done.');
  });

  // A paused nested call has not ended: its end event says `interrupted`, with no output.
  it('a paused nested call does not report its ToolInterruption as output', async () => {
    const { boss } = payroll();
    const paused = await run(boss, 'pay bob', { stream: true });
    const events: RunStreamEvent[] = await collect(paused);
    await paused.completed;
    const end = events.find((e): e is ToolStreamEndEvent => e.type === 'tool_stream_end_event');
    expect(end?.output).toBeUndefined();
  });
});
