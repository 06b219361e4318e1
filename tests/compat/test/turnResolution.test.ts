import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf } from './sdks.js';

// What a turn leads to once its tools settled, run on both SDKs: which results can end the run,
// what an empty answer is, which hook announces the end, and the step a failed run is left at.

describe('resolving a turn (same on both SDKs)', () => {
  it("a text agent's empty answer is its final output, without another model call", async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = new testing.ScriptedModel([[testing.assistantMessage('')], [testing.assistantMessage('asked again')]]);
      const result = await sdk.run(new sdk.Agent({ name: 'Quiet', model }), 'say nothing');
      return { finalOutput: result.finalOutput, calls: model.calls.length };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ finalOutput: '', calls: 1 });
  });

  it("'stop_on_first_tool' ends the run on a function tool's output, not on a shell call's", async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const lookup = sdk.tool({ name: 'lookup', description: 'look up', parameters: z.object({}), execute: async () => 'looked up' });
      const shell = sdk.shellTool({ shell: { run: async () => ({ output: [{ stdout: 'a.txt', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] }) } } as never);
      const shellCall = { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['ls'] } };
      const outcomes: unknown[] = [];
      for (const first of [[shellCall], [testing.functionCall('lookup', {}, { callId: 'c1' })]]) {
        const model = new testing.ScriptedModel([first as never, [testing.assistantMessage('the model answers')]]);
        const agent = new sdk.Agent({ name: 'Ops', model, tools: [lookup, shell], toolUseBehavior: 'stop_on_first_tool' });
        const result = await sdk.run(agent, 'go');
        outcomes.push({ finalOutput: result.finalOutput, calls: model.calls.length });
      }
      return outcomes;
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual([
      { finalOutput: 'the model answers', calls: 2 },
      { finalOutput: 'looked up', calls: 1 },
    ]);
  });

  it("agent_end announces an error handler's answer (JSON text for a structured output type)", async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const model = new testing.ScriptedModel([[testing.assistantMessage('')]]);
      const agent = new sdk.Agent({ name: 'Summarizer', outputType: z.object({ summary: z.string() }), model });
      const ended: unknown[] = [];
      agent.on('agent_end', (_ctx: unknown, output: unknown) => void ended.push(output));
      const result = await sdk.run(agent, 'go', { errorHandlers: { invalidFinalOutput: () => ({ finalOutput: { summary: 'fallback' } }) } } as never);
      return { finalOutput: result.finalOutput, ended };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ finalOutput: { summary: 'fallback' }, ended: ['{"summary":"fallback"}'] });
  });

  it('a run out of turns right after a handoff is left at next_step_run_again, on the new agent', async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const target = new sdk.Agent({ name: 'Target', model: new testing.ScriptedModel([[testing.assistantMessage('never')]]) });
      const model = new testing.ScriptedModel([[testing.functionCall('transfer_to_Target', {}, { callId: 'h1' })]]);
      const triage = new sdk.Agent({ name: 'Triage', model, handoffs: [target] });
      const outcome = await outcomeOf(sdk.run(triage, 'go', { maxTurns: 1 }));
      const state = outcome.ok ? undefined : (outcome.error as { state?: { toString(): string } }).state;
      const json = JSON.parse(state!.toString()) as { currentStep?: { type?: string }; currentAgent?: { name?: string } };
      return { error: outcome.ok ? 'ok' : outcome.name, step: json.currentStep?.type, agent: json.currentAgent?.name };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ error: 'MaxTurnsExceededError', step: 'next_step_run_again', agent: 'Target' });
  });

  it("an output guardrail on a model answer gets the response and the run's items; a trip keeps the answer on the error and the items on its state", async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const seen: unknown[] = [];
      const guard = {
        name: 'no_secrets',
        execute: async (args: any) => {
          seen.push({ response: args.details?.modelResponse?.output?.map((i: any) => i.type), output: args.details?.output?.map((i: any) => i.type) });
          return { tripwireTriggered: true, outputInfo: 'blocked' };
        },
      };
      const model = new testing.ScriptedModel([[testing.assistantMessage('secret answer')]]);
      const agent = new sdk.Agent({ name: 'Guarded', model, outputGuardrails: [guard] });
      const outcome = await outcomeOf(sdk.run(agent, 'go'));
      const error = outcome.ok ? undefined : (outcome.error as { result: { agentOutput: unknown }; state: { toString(): string } });
      return { error: outcome.ok ? 'ok' : outcome.name, seen, agentOutput: error?.result.agentOutput, items: JSON.parse(error!.state.toString()).generatedItems.length };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ error: 'OutputGuardrailTripwireTriggered', seen: [{ response: ['message'], output: ['message'] }], agentOutput: 'secret answer', items: 1 });
  });

  it("running a tripped output guardrail's error state again checks the same answer again, without a model call", async () => {
    const both = await onBoth(async ({ sdk, testing }) => {
      let checks = 0;
      const guard = { name: 'second_look', execute: async () => ({ tripwireTriggered: ++checks === 1, outputInfo: checks }) };
      const model = new testing.ScriptedModel([[testing.assistantMessage('the answer')], [testing.assistantMessage('asked again')]]);
      const agent = new sdk.Agent({ name: 'Guarded', model, outputGuardrails: [guard] });
      const first = await outcomeOf(sdk.run(agent, 'go'));
      const state = first.ok ? undefined : (first.error as { state: any }).state;
      const again = await sdk.run(agent, state);
      return { first: first.ok ? 'ok' : first.name, finalOutput: again.finalOutput, checks, calls: model.calls.length };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({ first: 'OutputGuardrailTripwireTriggered', finalOutput: 'the answer', checks: 2, calls: 1 });
  });

  it.each([
    ['stop_on_first_tool', 'stop_on_first_tool'],
    ['stopAtToolNames', { stopAtToolNames: ['lookup'] }],
    ['a function that ends the run', () => ({ isFinalOutput: true, finalOutput: 'ended by the function' })],
  ])('a handoff in the same turn comes before a tool-use behaviour that would end the run (%s)', async (_name, toolUseBehavior) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const target = new sdk.Agent({ name: 'Target', model: new testing.ScriptedModel([[testing.assistantMessage('from target')]]) });
      const lookup = sdk.tool({ name: 'lookup', description: 'look up', parameters: z.object({}), execute: async () => 'looked up' });
      const model = new testing.ScriptedModel([[testing.functionCall('lookup', {}, { callId: 'c1' }), testing.functionCall('transfer_to_Target', {}, { callId: 'h1' })]]);
      const triage = new sdk.Agent({ name: 'Triage', model, tools: [lookup], handoffs: [target], toolUseBehavior: toolUseBehavior as never });
      const result = await sdk.run(triage, 'go');
      return { finalOutput: result.finalOutput, lastAgent: result.lastAgent?.name, items: result.newItems.map((item: { type: string }) => item.type) };
    });
    expect(both.baton).toEqual(both.reference);
    expect(both.baton).toEqual({
      finalOutput: 'from target',
      lastAgent: 'Target',
      items: ['tool_call_item', 'handoff_call_item', 'tool_call_output_item', 'handoff_output_item', 'message_output_item'],
    });
  });
});
