import { CURRENT_RUN_STATE_SCHEMA_VERSION } from '@baton/types/internal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, RunResult, RunState, UserError, run, tool, type AgentOptions } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, type ScriptedModelInput } from '@baton/testing';
import { RunToolApprovalItem, Usage } from '@baton/types';
import { Executions, approvalTool, echoOutputs, reasoning, toolOutputsIn, weatherScenario } from './support/scenarios.js';

/** Every item kind in one run: message, handoff call and output, reasoning, tool call and output, approval. */
function kitchenSink(script: ScriptedModelInput[], options: Partial<AgentOptions<any, any>> = {}) {
  const executions = new Executions();
  const model = new ScriptedModel(script);
  const lookup = tool({
    name: 'lookup',
    description: 'Look a word up',
    parameters: z.object({ word: z.string() }),
    execute: ({ word }) => ({ word, definition: `the meaning of ${word}` }),
    inputGuardrails: [{ name: 'args_ok', run: () => ({ behavior: { type: 'allow' }, outputInfo: { checked: true } }) }],
    outputGuardrails: [{ name: 'output_ok', run: () => ({ behavior: { type: 'allow' } }) }],
  });
  const worker = new Agent({ name: 'Worker', instructions: 'Work.', model, tools: [lookup, approvalTool('pay', executions)], ...options });
  const router = new Agent({
    name: 'Router',
    instructions: 'Route.',
    model,
    handoffs: [worker],
    inputGuardrails: [{ name: 'polite', execute: () => ({ tripwireTriggered: false, outputInfo: { score: 0.9 } }) }],
  });
  return { router, worker, model, executions };
}

const firstTurns: ScriptedModelInput[] = [
  { output: [assistantMessage('Routing you.'), functionCall('transfer_to_Worker', {}, { callId: 'h1' })], usage: new Usage({ inputTokens: 10, outputTokens: 3, inputTokensDetails: { cached_tokens: 4 } }), responseId: 'resp_1' },
  {
    output: [reasoning('Look it up, then pay.'), functionCall('lookup', { word: 'baton' }, { callId: 'l1' }), functionCall('pay', { target: 'bob' }, { callId: 'p1' })],
    usage: new Usage({ inputTokens: 20, outputTokens: 5 }),
    responseId: 'resp_2',
    providerData: { model: 'scripted' },
  },
];

describe('serialization round trips', () => {
  it('keeps every item kind, agent, guardrail result, usage and the interruption', async () => {
    const live = kitchenSink([...firstTurns, echoOutputs('Done')]);
    const paused = await run(live.router, [{ type: 'message', role: 'user', content: 'define baton, then pay bob' }], { context: { tenant: 't1' }, maxTurns: 7 });
    expect(paused.interruptions.map((i) => i.callId)).toEqual(['p1']);
    const text = paused.state.toString();
    const json = JSON.parse(text);
    expect(json.$schemaVersion).toBe(CURRENT_RUN_STATE_SCHEMA_VERSION);

    // Another process: a fresh graph, and a model scripted for the remaining turn only.
    const other = kitchenSink([echoOutputs('Done')]);
    const restored = await RunState.fromString(other.router, text);
    expect(restored.generatedItems.map((i) => i.type)).toEqual([
      'message_output_item',
      'handoff_call_item',
      'handoff_output_item',
      'reasoning_item',
      'tool_call_item',
      'tool_call_item',
      'tool_call_output_item',
      'tool_approval_item',
    ]);
    const liveItems = paused.state.generatedItems;
    restored.generatedItems.forEach((item, i) => {
      expect(item.rawItem).toEqual(liveItems[i]!.rawItem);
      expect(item.constructor).toBe(liveItems[i]!.constructor);
    });
    const agents = restored.generatedItems.map((item) => (item.type === 'handoff_output_item' ? `${item.sourceAgent.name}->${item.targetAgent.name}` : item.agent.name));
    expect(agents).toEqual(['Router', 'Router', 'Router->Worker', 'Worker', 'Worker', 'Worker', 'Worker', 'Worker']);
    const handoff = restored.generatedItems[2]!;
    expect(handoff.type === 'handoff_output_item' && handoff.targetAgent).toBe(other.worker);
    expect(restored.generatedItems[0]!.agent).toBe(other.router);
    const output = restored.generatedItems[6]!;
    expect(output.type === 'tool_call_output_item' && output.output).toEqual({ word: 'baton', definition: 'the meaning of baton' });

    expect(restored.currentAgent).toBe(other.worker);
    expect(restored.currentTurn).toBe(2);
    expect(restored.maxTurns).toBe(7);
    expect(restored.originalInput).toEqual([{ type: 'message', role: 'user', content: 'define baton, then pay bob' }]);
    expect(restored.context.context).toEqual({ tenant: 't1' });
    expect(restored.usage).toBeInstanceOf(Usage);
    expect(restored.usage).toMatchObject({ requests: 2, inputTokens: 30, outputTokens: 8, totalTokens: 38, inputTokensDetails: [{ cached_tokens: 4 }] });
    expect(restored.modelResponses.map((r) => [r.responseId, r.usage instanceof Usage, r.providerData])).toEqual([
      ['resp_1', true, undefined],
      ['resp_2', true, { model: 'scripted' }],
    ]);
    expect(restored.inputGuardrailResults).toEqual(paused.state.inputGuardrailResults);
    expect(restored.inputGuardrailResults).toHaveLength(1);
    expect(restored.toolInputGuardrailResults).toEqual([{ guardrail: { type: 'tool_input', name: 'args_ok' }, output: { behavior: { type: 'allow' }, outputInfo: { checked: true } } }]);
    expect(restored.toolOutputGuardrailResults).toHaveLength(1);

    const [interruption] = restored.getInterruptions();
    expect(interruption).toBeInstanceOf(RunToolApprovalItem);
    // The pending step holds the history's own item, as in a live state; getInterruptions() hands out a copy of it.
    const pending = (restored as unknown as { _currentStep: { data: { interruptions: unknown[] } } })._currentStep.data.interruptions[0];
    expect(pending).toBe(restored.generatedItems[7]);
    expect(interruption).toEqual(restored.generatedItems[7]);
    expect(interruption!.agent).toBe(other.worker);
    expect(interruption!.arguments).toBe('{"target":"bob"}');

    // Rewriting is exact.
    expect(restored.toString()).toBe(text);
  });

  it('resuming from the string gives the same result as resuming the live state', async () => {
    const live = kitchenSink([...firstTurns, echoOutputs('Done')]);
    const pausedLive = await run(live.router, 'go');
    pausedLive.state.approve(pausedLive.interruptions[0]!, { decidedBy: 'ann' });
    const text = pausedLive.state.toString();
    const fromLive = await run(live.router, pausedLive.state);

    const other = kitchenSink([echoOutputs('Done')]);
    const fromText = await run(other.router, await RunState.fromString(other.router, text));

    expect(fromText.finalOutput).toBe(fromLive.finalOutput);
    expect(fromText.finalOutput).toContain('pay done for bob');
    expect(fromText.history).toEqual(fromLive.history);
    expect(fromText.newItems.map((i) => i.type)).toEqual(fromLive.newItems.map((i) => i.type));
    expect(fromText.state.currentTurn).toBe(fromLive.state.currentTurn);
    expect(fromText.state.usage).toMatchObject({ requests: fromLive.state.usage.requests, inputTokens: fromLive.state.usage.inputTokens });
    expect(fromText.lastAgent).toBe(other.worker);
    expect(other.executions.calls).toEqual(['pay:bob']);
    // The model got the same input in both processes.
    expect(other.model.calls[0]!.request.input).toEqual(live.model.calls[2]!.request.input);
  });

  it('round-trips a completed run with a structured output and output guardrail results', async () => {
    const model = new ScriptedModel([[assistantMessage('{"city":"Oakland","sunny":true}')]]);
    const make = () =>
      new Agent({
        name: 'Forecaster',
        model,
        outputType: z.object({ city: z.string(), sunny: z.boolean() }),
        outputGuardrails: [{ name: 'no_rain', execute: () => ({ tripwireTriggered: false, outputInfo: 'dry' }) }],
      });
    const agent = make();
    const done = await run(agent, 'forecast');
    const text = done.state.toString();
    const restored = await RunState.fromString(make(), text);
    expect(new RunResult(restored).finalOutput).toEqual({ city: 'Oakland', sunny: true });
    expect(restored.outputGuardrailResults).toMatchObject([{ guardrail: { type: 'output', name: 'no_rain' }, agentOutput: { city: 'Oakland', sunny: true } }]);
    expect(restored.outputGuardrailResults[0]!.agent.name).toBe('Forecaster');
    expect(restored.toString()).toBe(text);
    // As the reference: the stored answer is checked again and returned, with no model call.
    const again = await run(agent, restored);
    expect(again.finalOutput).toEqual({ city: 'Oakland', sunny: true });
    expect(model.calls).toHaveLength(1);
  });

  it('leaves out a tracing API key (there is none in a state), with or without includeTracingApiKey', async () => {
    const { root } = weatherScenario();
    const paused = await run(root, 'What is the weather in Oakland and San Francisco?');
    const text = paused.state.toString();
    expect(paused.state.toString({ includeTracingApiKey: true })).toBe(text);
    expect(text).not.toMatch(/api_?key/i);
  });
});

describe('turn counting on resume', () => {
  it('a resumed approval is not a new turn, from a string as from the live state', async () => {
    const { root } = weatherScenario();
    const paused = await run(root, 'weather?', { maxTurns: 3 });
    expect(paused.state.currentTurn).toBe(2);
    const text = paused.state.toString();

    // Resuming without a decision pauses again without a turn.
    const again = weatherScenario({ resumeOnly: true, afterResume: [] });
    const stillPaused = await run(again.root, await RunState.fromString(again.root, text));
    expect(stillPaused.state.currentTurn).toBe(2);
    expect(again.model.calls).toHaveLength(0);

    // Approving and resuming uses one more turn (the follow-up model call), within maxTurns 3.
    const next = weatherScenario({ resumeOnly: true });
    const state = await RunState.fromString(next.root, stillPaused.state.toString());
    expect(state.maxTurns).toBe(3);
    state.approve(state.getInterruptions()[0]!);
    const done = await run(next.root, state);
    expect(done.state.currentTurn).toBe(3);
    expect(done.finalOutput).toContain('The weather in San Francisco is sunny');
    expect(toolOutputsIn(next.model.calls[0]!.request)).toEqual({
      call_handoff: '{"assistant":"Data agent"}',
      call_oak: 'The weather in Oakland is sunny',
      call_sf: 'The weather in San Francisco is sunny',
    });
  });
});
