import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, Handoff, Runner, run, tool, type FunctionTool, type HandoffContract, type RunContextContract } from '../src/index.js';

// A turn reads an agent's instructions, tools and handoffs without calling it when nothing can
// change them (text instructions, fixed tools, a model object). These pin that whatever can change
// them is still asked on every turn, as the reference asks.

const step = (name = 'step') => tool({ name, description: '', parameters: z.object({}), execute: () => 'ok' });

/** Two turns: a call to `step`, then the answer. */
const twoTurns = () => new ScriptedModel([[functionCall('step', {})], [assistantMessage('done')]]);

describe('what a turn asks the agent', () => {
  it('asks a subclass that replaces the methods, on every turn', async () => {
    const asked: string[] = [];
    class Counting extends Agent {
      override async getSystemPrompt(runContext: RunContextContract<unknown>) {
        asked.push('instructions');
        return `turn ${asked.filter((a) => a === 'instructions').length} of ${String(await super.getSystemPrompt(runContext))}`;
      }
      override async getEnabledTools(runContext: RunContextContract<unknown>): Promise<FunctionTool<any>[]> {
        asked.push('tools');
        const tools = await super.getEnabledTools(runContext);
        return asked.filter((a) => a === 'tools').length === 1 ? tools : [...tools, step('extra')];
      }
      override async getEnabledHandoffs(runContext: RunContextContract<unknown>): Promise<HandoffContract<any>[]> {
        asked.push('handoffs');
        return super.getEnabledHandoffs(runContext);
      }
    }
    const model = twoTurns();
    const result = await run(new Counting({ name: 'A', instructions: 'Be brief.', model, tools: [step()] }), 'go');
    expect(result.finalOutput).toBe('done');
    expect(model.calls.map((c) => c.request.systemInstructions)).toEqual(['turn 1 of Be brief.', 'turn 2 of Be brief.']);
    expect(model.calls.map((c) => c.request.tools.map((t) => t.name))).toEqual([['step'], ['step', 'extra']]);
    expect(asked).toEqual(['instructions', 'tools', 'handoffs', 'instructions', 'tools', 'handoffs']);
  });

  it('asks an instance whose method was replaced', async () => {
    const model = twoTurns();
    const agent = new Agent({ name: 'A', instructions: 'Be brief.', model, tools: [step()] });
    let turn = 0;
    agent.getSystemPrompt = async () => `patched ${++turn}`;
    await run(agent, 'go');
    expect(model.calls.map((c) => c.request.systemInstructions)).toEqual(['patched 1', 'patched 2']);
  });

  it('reads the agent as it is on each turn: a tool added during the run is offered on the next', async () => {
    const model = twoTurns();
    const agent = new Agent({ name: 'A', instructions: 'Be brief.', model, tools: [] as FunctionTool<any>[] });
    agent.tools.push(
      tool({
        name: 'step',
        description: '',
        parameters: z.object({}),
        execute: () => {
          agent.tools.push(step('later'));
          return 'ok';
        },
      }),
    );
    await run(agent, 'go');
    expect(model.calls.map((c) => c.request.tools.map((t) => t.name))).toEqual([['step'], ['step', 'later']]);
  });

  it('asks a handoff’s isEnabled and a tool’s isEnabled function on every turn', async () => {
    const model = twoTurns();
    let toolAsked = 0;
    let handoffAsked = 0;
    const other = new Agent({ name: 'Other', model });
    const agent = new Agent({
      name: 'A',
      model,
      tools: [step(), tool({ name: 'odd', description: '', parameters: z.object({}), execute: () => 'ok', isEnabled: () => ++toolAsked === 2 })],
      handoffs: [new Handoff(other, () => other).clone({ isEnabled: () => ++handoffAsked === 1 })],
    });
    await run(agent, 'go');
    expect(model.calls.map((c) => [c.request.tools.map((t) => t.name), c.request.handoffs.map((h) => h.toolName)])).toEqual([
      [['step'], ['transfer_to_Other']],
      [['step', 'odd'], []],
    ]);
  });

  it('asks the model provider for a model named by a string, on every turn', async () => {
    const model = twoTurns();
    const names: Array<string | undefined> = [];
    const agent = new Agent({ name: 'A', model: 'named', tools: [step()] });
    await new Runner({ modelProvider: { getModel: (name) => (names.push(name), model) } }).run(agent, 'go');
    expect(names).toEqual(['named', 'named']);
  });
});
