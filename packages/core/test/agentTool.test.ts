import { SerializedRunStateSchema } from '@baton/types/internal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, Runner, UserError, run, tool, type AgentToolStreamEvent, type RunStreamEvent } from '../src/index.js';
import { eventLabel, inputOf, resultText } from './helpers.js';

const ask = (input: string, callId = 'outer_1') => functionCall('ask_expert', { input }, { callId });

function experts(innerScript: ConstructorParameters<typeof ScriptedModel>[0], outerScript: ConstructorParameters<typeof ScriptedModel>[0]) {
  const innerModel = new ScriptedModel(innerScript);
  const outerModel = new ScriptedModel(outerScript);
  const inner = new Agent({ name: 'Expert', instructions: 'You know things.', model: innerModel, handoffDescription: 'Knows things' });
  return { inner, innerModel, outerModel };
}

describe('agent.asTool()', () => {
  it('runs the nested agent with the model’s input and gives the outer model its final output', async () => {
    const { inner, innerModel, outerModel } = experts([[assistantMessage('42, obviously')]], [[ask('meaning of life?')], [assistantMessage('The expert says 42.')]]);
    const expertTool = inner.asTool({ toolName: 'ask_expert', toolDescription: 'Ask the expert' });
    expect(expertTool.name).toBe('ask_expert');
    expect(expertTool.description).toBe('Ask the expert');
    expect(expertTool.parameters).toMatchObject({ type: 'object', required: ['input'], additionalProperties: false });

    const outer = new Agent({ name: 'Orchestrator', model: outerModel, tools: [expertTool] });
    const result = await run(outer, 'what is the meaning of life?');
    expect(result.finalOutput).toBe('The expert says 42.');
    expect(inputOf(innerModel.calls[0])).toEqual([{ type: 'message', role: 'user', content: 'meaning of life?' }]);
    expect(innerModel.calls[0]!.request.systemInstructions).toBe('You know things.');
    expect(resultText(outerModel.calls[1], 'outer_1')).toBe('42, obviously');
    // The nested run's items stay out of the outer run.
    expect(result.newItems.map((i) => i.type)).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
  });

  it('defaults the tool name to the agent name and the description to its handoffDescription', () => {
    const agent = new Agent({ name: 'Travel agent', handoffDescription: 'Books trips' });
    const t = agent.asTool();
    expect(t.name).toBe('Travel_agent');
    expect(t.description).toBe('Books trips');
  });

  it('turns a structured nested output into JSON for the outer model', async () => {
    const innerModel = new ScriptedModel([[assistantMessage('{"answer":42}')]]);
    const inner = new Agent({ name: 'Expert', model: innerModel, outputType: z.object({ answer: z.number() }) });
    const outerModel = new ScriptedModel([[ask('q')], [assistantMessage('ok')]]);
    await run(new Agent({ name: 'O', model: outerModel, tools: [inner.asTool({ toolName: 'ask_expert' })] }), 'go');
    expect(resultText(outerModel.calls[1], 'outer_1')).toBe('{"answer":42}');
  });

  it('uses customOutputExtractor to build the tool output from the nested result', async () => {
    const { inner, outerModel } = experts([[assistantMessage('long answer')]], [[ask('q')], [assistantMessage('ok')]]);
    const expertTool = inner.asTool({
      toolName: 'ask_expert',
      customOutputExtractor: (result) => `${result.lastAgent.name} said: ${String(result.finalOutput).toUpperCase()} (${result.newItems.length} item)`,
    });
    await run(new Agent({ name: 'O', model: outerModel, tools: [expertTool] }), 'go');
    expect(resultText(outerModel.calls[1], 'outer_1')).toBe('Expert said: LONG ANSWER (1 item)');
  });

  // The answers are the reference's: JSON it cannot parse (an empty string too) is the runner's;
  // arguments without the \`input\` string are the tool's error, answered with the default text.
  it.each([
    ['arguments without `input`', JSON.stringify({ question: 'q' }), 'An error occurred while running the tool. Please try again.'],
    ['empty arguments', '', 'An error occurred while parsing tool arguments. Please try again with valid JSON.'],
    ['malformed JSON', '{"input":', 'An error occurred while parsing tool arguments. Please try again with valid JSON.'],
  ])('answers the outer model for %s without running the nested agent', async (_label, args, answer) => {
    const { inner, innerModel, outerModel } = experts([], [[functionCall('ask_expert', args, { callId: 'bad' })], [assistantMessage('ok')]]);
    await run(new Agent({ name: 'O', model: outerModel, tools: [inner.asTool({ toolName: 'ask_expert' })] }), 'go');
    expect(resultText(outerModel.calls[1], 'bad')).toBe(answer);
    expect(innerModel.calls).toHaveLength(0);
  });

  it('runs the nested agent on the outer runner’s model provider', async () => {
    const innerModel = new ScriptedModel([[assistantMessage('from the provider')]]);
    const outerModel = new ScriptedModel([[ask('q')], [assistantMessage('ok')]]);
    const runner = new Runner({ modelProvider: { getModel: (name) => (name === 'inner-model' ? innerModel : outerModel) } });
    const inner = new Agent({ name: 'Expert', model: 'inner-model' });
    await runner.run(new Agent({ name: 'O', model: 'outer-model', tools: [inner.asTool({ toolName: 'ask_expert' })] }), 'go');
    expect(innerModel.calls).toHaveLength(1);
    expect(resultText(outerModel.calls[1], 'outer_1')).toBe('from the provider');
  });

  it.each([
    ['toolName', { toolName: 5 }],
    ['toolDescription', { toolDescription: null }],
    ['onStream', { onStream: 'nope' }],
    ['customOutputExtractor', { customOutputExtractor: {} }],
    ['needsApproval', { needsApproval: 'yes' }],
  ])('rejects a bad %s with a UserError', (field, options) => {
    const make = () => new Agent({ name: 'E' }).asTool(options as never);
    expect(make).toThrow(UserError);
    expect(make).toThrow(field);
  });
});

describe('nested events', () => {
  it('reach onStream and handlers registered with .on(type) and .on("*")', async () => {
    const { inner, outerModel } = experts(
      [[functionCall('lookup', {}, { callId: 'inner_1' })], [assistantMessage('found it')]],
      [[ask('find')], [assistantMessage('ok')]],
    );
    const lookup = tool({ name: 'lookup', description: '', parameters: z.object({}), execute: () => 'data' });
    const innerWithTool = inner.clone({ tools: [lookup] });

    const viaOnStream: AgentToolStreamEvent[] = [];
    const viaItems: string[] = [];
    const viaAll: string[] = [];
    const expertTool = innerWithTool
      .asTool({ toolName: 'ask_expert', onStream: (e) => void viaOnStream.push(e) })
      .on('run_item_stream_event', (e) => void viaItems.push(eventLabel(e.event)))
      .on('*', (e) => void viaAll.push(eventLabel(e.event)));

    const outerResult = await run(new Agent({ name: 'O', model: outerModel, tools: [expertTool] }), 'go');
    expect(outerResult.finalOutput).toBe('ok');

    expect(viaItems).toEqual(['tool_called', 'tool_output', 'message_output_created']);
    expect(viaAll).toEqual(viaOnStream.map((e) => eventLabel(e.event)));
    expect(viaAll.filter((l) => l.startsWith('raw:'))).toContain('raw:output_text_delta');
    expect(viaOnStream.every((e) => e.agent === innerWithTool && e.toolCall?.callId === 'outer_1')).toBe(true);
    // The nested run's own events never become outer items.
    expect(outerResult.newItems.map((i) => i.type)).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
  });

  it('with streaming: true, wraps nested events in the outer stream as streaming_tool_context_event', async () => {
    const { inner, outerModel } = experts([[assistantMessage('nested text')]], [[ask('q')], [assistantMessage('outer text')]]);
    const outer = new Agent({ name: 'O', model: outerModel, tools: [inner.asTool({ toolName: 'ask_expert', streaming: true })] });
    const result = await run(outer, 'go', { stream: true });
    const events: RunStreamEvent[] = [];
    for await (const event of result) events.push(event);
    await result.completed;
    const wrapped = events.filter((e) => e.type === 'streaming_tool_context_event');
    expect(wrapped.length).toBeGreaterThan(0);
    expect(wrapped.every((e) => e.toolName === 'ask_expert' && e.toolCallId === 'outer_1')).toBe(true);
    expect(wrapped.map((e) => eventLabel(e.internalEvent))).toContain('message_output_created');
    expect(events.map((e) => e.type)).toContain('tool_stream_start_event');
    expect(events.map((e) => e.type)).toContain('tool_stream_end_event');
    expect(result.finalOutput).toBe('outer text');
    expect(result.history.map((i) => i.type ?? 'message')).toEqual(['message', 'function_call', 'function_call_result', 'message']);
  });
});

describe('approvals inside a nested agent', () => {
  function setup() {
    const executed: string[] = [];
    const pay = tool({
      name: 'pay',
      description: '',
      parameters: z.object({ to: z.string() }),
      needsApproval: true,
      execute: ({ to }) => {
        executed.push(to);
        return `paid ${to}`;
      },
    });
    const innerModel = new ScriptedModel([[functionCall('pay', { to: 'bob' }, { callId: 'inner_pay' })], [assistantMessage('Bob is paid.')]]);
    const inner = new Agent({ name: 'Treasurer', model: innerModel, tools: [pay] });
    const outerModel = new ScriptedModel([[ask('pay bob')], [assistantMessage('Done: Bob is paid.')]]);
    const outer = new Agent({ name: 'Boss', model: outerModel, tools: [inner.asTool({ toolName: 'ask_expert' })] });
    return { executed, inner, innerModel, outer, outerModel };
  }

  it('surface in the outer result, and resuming the outer state resumes the nested run', async () => {
    const { executed, inner, innerModel, outer, outerModel } = setup();
    const paused = await run(outer, 'pay bob');

    expect(executed).toEqual([]);
    expect(paused.finalOutput).toBeUndefined();
    expect(paused.interruptions).toHaveLength(1);
    const item = paused.interruptions[0]!;
    expect(item.toolName).toBe('pay');
    expect(item.callId).toBe('inner_pay');
    expect(item.agent).toBe(inner);
    expect(paused.state.getInterruptions()).toEqual(paused.interruptions);

    expect(paused.state.hasPendingAgentToolRun('ask_expert', 'outer_1')).toBe(true);
    expect(paused.state.hasPendingAgentToolRun('ask_expert', 'other')).toBe(false);
    const nested = paused.state.getPendingAgentToolRun('ask_expert', 'outer_1');
    expect(typeof nested).toBe('string');
    const nestedJson = SerializedRunStateSchema.parse(JSON.parse(nested!));
    expect(nestedJson.currentAgent.name).toBe('Treasurer');
    expect(nestedJson.currentStep?.type).toBe('next_step_interruption');
    expect(paused.state.getPendingAgentToolRun('ask_expert', 'other')).toBeUndefined();
    expect(paused.state.toJSON().pendingAgentToolRuns).toEqual({ 'ask_expert:outer_1': nested });

    paused.state.approve(item);
    const resumed = await run(outer, paused.state);
    expect(resumed.finalOutput).toBe('Done: Bob is paid.');
    expect(executed).toEqual(['bob']);
    expect(innerModel.calls).toHaveLength(2); // not re-called for the interrupted response
    expect(outerModel.calls).toHaveLength(2);
    expect(resultText(innerModel.calls[1], 'inner_pay')).toBe('paid bob');
    expect(resultText(outerModel.calls[1], 'outer_1')).toBe('Bob is paid.');
    expect(resumed.state.hasPendingAgentToolRun('ask_expert', 'outer_1')).toBe(false);
    expect(resumed.state.currentTurn).toBe(2);
  });

  it('a rejection on the outer state reaches the nested model', async () => {
    const { executed, innerModel, outer } = setup();
    const paused = await run(outer, 'pay bob');
    paused.state.reject(paused.interruptions[0]!, { message: 'No payments today.' });
    const resumed = await run(outer, paused.state);
    expect(executed).toEqual([]);
    expect(resultText(innerModel.calls[1], 'inner_pay')).toBe('No payments today.');
    expect(resumed.finalOutput).toBe('Done: Bob is paid.');
  });

  it('resuming without a decision keeps the nested run paused', async () => {
    const { executed, innerModel, outer, outerModel } = setup();
    const paused = await run(outer, 'pay bob');
    const again = await run(outer, paused.state);
    expect(again.interruptions.map((i) => i.callId)).toEqual(['inner_pay']);
    expect(again.state.hasPendingAgentToolRun('ask_expert', 'outer_1')).toBe(true);
    expect(executed).toEqual([]);
    expect(innerModel.calls).toHaveLength(1);
    expect(outerModel.calls).toHaveLength(1);
  });

  it('works in streamed runs (pause and resume)', async () => {
    const { executed, innerModel, outer, outerModel } = setup();
    const paused = await run(outer, 'pay bob', { stream: true });
    for await (const _event of paused) {
      // drain
    }
    await paused.completed;
    expect(paused.interruptions.map((i) => i.callId)).toEqual(['inner_pay']);
    paused.state.approve(paused.interruptions[0]!);

    const resumed = await run(outer, paused.state, { stream: true });
    const labels: string[] = [];
    for await (const event of resumed) if (event.type === 'run_item_stream_event') labels.push(event.name);
    await resumed.completed;
    expect(labels).toEqual(['tool_output', 'message_output_created']);
    expect(resumed.finalOutput).toBe('Done: Bob is paid.');
    expect(executed).toEqual(['bob']);
    expect(innerModel.calls).toHaveLength(2);
    expect(outerModel.calls).toHaveLength(2);
  });

  it('work when the nested run streams to an onStream handler', async () => {
    const { executed, inner, innerModel, outerModel } = setup();
    const nestedEvents: string[] = [];
    const outer = new Agent({
      name: 'Boss',
      model: outerModel,
      tools: [inner.asTool({ toolName: 'ask_expert', onStream: ({ event }) => void nestedEvents.push(eventLabel(event)) })],
    });
    const paused = await run(outer, 'pay bob');
    expect(paused.interruptions.map((i) => i.callId)).toEqual(['inner_pay']);
    expect(nestedEvents.filter((l) => !l.startsWith('raw:'))).toEqual(['tool_called', 'tool_approval_requested']);
    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(outer, paused.state);
    expect(resumed.finalOutput).toBe('Done: Bob is paid.');
    expect(executed).toEqual(['bob']);
    expect(innerModel.calls).toHaveLength(2);
    expect(nestedEvents.filter((l) => !l.startsWith('raw:')).slice(2)).toEqual(['tool_output', 'message_output_created']);
  });

  it('asTool({ needsApproval }) pauses before the nested agent runs at all', async () => {
    const innerModel = new ScriptedModel([[assistantMessage('nested ran')]]);
    const inner = new Agent({ name: 'Expert', model: innerModel });
    const outerModel = new ScriptedModel([[ask('q')], [assistantMessage('ok')]]);
    const outer = new Agent({
      name: 'O',
      model: outerModel,
      tools: [inner.asTool({ toolName: 'ask_expert', needsApproval: async (_ctx, { input }) => input === 'q' })],
    });
    const paused = await run(outer, 'go');
    expect(paused.interruptions.map((i) => i.toolName)).toEqual(['ask_expert']);
    expect(innerModel.calls).toHaveLength(0);
    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(outer, paused.state);
    expect(resumed.finalOutput).toBe('ok');
    expect(resultText(outerModel.calls[1], 'outer_1')).toBe('nested ran');
  });
});
