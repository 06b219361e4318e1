import { describe, expect, it } from 'vitest';
import { Agent, Runner, UserError, run, type HandoffInputData } from '@baton/core';
import { ScriptedModel } from '@baton/testing';
import { handoff, removeAllTools } from '../src/index.js';
import { inputOf, recordingFilter, triageScenario, typesOf, userMessage } from './helpers.js';

describe('handoff input filters', () => {
  it('receive the input history, the items before the turn, this turn’s items and the run context', async () => {
    const { filter, seen } = recordingFilter();
    const { triage } = triageScenario({ filter });
    const context = { customer: 'c-42' };
    const result = await run(triage, 'I was charged twice', { context });

    expect(seen).toHaveLength(1);
    const data = seen[0]!;
    expect(data.inputHistory).toBe('I was charged twice');
    expect(typesOf(data.preHandoffItems)).toEqual(['reasoning_item', 'tool_call_item', 'tool_call_output_item']);
    expect(typesOf(data.newItems)).toEqual(['message_output_item', 'handoff_call_item', 'handoff_output_item']);
    const output = data.newItems[2];
    expect(output?.type === 'handoff_output_item' && [output.sourceAgent.name, output.targetAgent.name, output.rawItem.output]).toEqual([
      'Triage',
      'Billing',
      { type: 'text', text: '{"assistant":"Billing"}' },
    ]);
    expect(data.runContext).toBe(result.runContext);
    expect(data.runContext?.context).toBe(context);
  });

  it('decide what the next agent sees, and what the result reports', async () => {
    const { triage, billingModel } = triageScenario({ filter: removeAllTools });
    const result = await run(triage, 'I was charged twice');

    expect(inputOf(billingModel.firstCall)).toEqual([
      { type: 'message', role: 'user', content: 'I was charged twice' },
      expect.objectContaining({ role: 'assistant', content: [{ type: 'output_text', text: 'Let me pass you to billing.' }] }),
    ]);
    expect(typesOf(result.newItems)).toEqual(['message_output_item', 'message_output_item']);
    expect(result.history.map((item) => item.type)).toEqual(['message', 'message', 'message']);
  });

  it('may replace the input history', async () => {
    const replaced = (data: HandoffInputData): HandoffInputData => ({ ...data, inputHistory: [userMessage('(rewritten)')], preHandoffItems: [], newItems: [] });
    const { triage, billingModel } = triageScenario({ filter: replaced });
    const result = await run(triage, 'original');
    expect(inputOf(billingModel.firstCall)).toEqual([userMessage('(rewritten)')]);
    expect(result.input).toEqual([userMessage('(rewritten)')]);
  });

  it('apply the runner-level filter to handoffs without their own, and the handoff’s own filter first', async () => {
    const runnerLevel = recordingFilter(() => {
      throw new Error('the runner-level filter must not run for a handoff with its own filter');
    });
    const own = recordingFilter(removeAllTools);
    const { triage, billingModel } = triageScenario({ filter: own.filter });
    await new Runner({ handoffInputFilter: runnerLevel.filter }).run(triage, 'hi');
    expect(own.seen).toHaveLength(1);
    expect(runnerLevel.seen).toHaveLength(0);
    expect(inputOf(billingModel.firstCall).map((item) => item.type)).toEqual(['message', 'message']);

    const fallback = recordingFilter(removeAllTools);
    const bare = triageScenario();
    await run(bare.triage, 'hi', { handoffInputFilter: fallback.filter });
    expect(fallback.seen).toHaveLength(1);
    expect(inputOf(bare.billingModel.firstCall).map((item) => item.type)).toEqual(['message', 'message']);
  });

  it('a per-run handoffInputFilter takes precedence over the runner’s', async () => {
    const runnerLevel = recordingFilter();
    const perRun = recordingFilter();
    const { triage } = triageScenario();
    await new Runner({ handoffInputFilter: runnerLevel.filter }).run(triage, 'hi', { handoffInputFilter: perRun.filter });
    expect([runnerLevel.seen.length, perRun.seen.length]).toEqual([0, 1]);
  });

  it.each([
    ['null', null],
    ['a string', 'filtered'],
    ['an object without newItems', { inputHistory: 'x', preHandoffItems: [] }],
    ['an inputHistory that is a number', { inputHistory: 5, preHandoffItems: [], newItems: [] }],
    // Core checks only that the three lists are arrays (packages/core/src/engine/internal/loop/handoff.ts,
    // isHandoffInputData), not what they hold: null crashes with a TypeError, other junk is sent to
    // the next model as history. These three fail until core checks the items.
    ['a preHandoffItems list holding null', { inputHistory: 'x', preHandoffItems: [null], newItems: [] }],
    ['a newItems list holding a string', { inputHistory: 'x', preHandoffItems: [], newItems: ['oops'] }],
    ['an inputHistory list holding a number', { inputHistory: [5], preHandoffItems: [], newItems: [] }],
  ])('returning %s fails the run with UserError', async (_label, junk) => {
    const { triage, billingModel } = triageScenario({ filter: (() => junk) as never });
    const error = await run(triage, 'hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/transfer_to_Billing.*must return HandoffInputData/);
    expect(billingModel.calls).toHaveLength(0);
  });

  it('a runner-level filter that is not callable fails with UserError', async () => {
    const { triage } = triageScenario();
    const error = await run(triage, 'hi', { handoffInputFilter: 'nope' as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('not callable');
  });

  it('a filter that throws fails the run with its own error', async () => {
    const boom = new Error('filter exploded');
    const { triage } = triageScenario({
      filter: () => {
        throw boom;
      },
    });
    await expect(run(triage, 'hi')).rejects.toBe(boom);
  });

  it('a filter given to handoff() that is not a function is a UserError at construction', () => {
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([]) });
    expect(() => handoff(billing, { inputFilter: 42 as never })).toThrow(UserError);
    expect(() => handoff(billing, { inputFilter: 42 as never })).toThrow(/`inputFilter` must be a function, got number/);
  });
});
