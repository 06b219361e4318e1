import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, inputOf } from '@baton/testing';
import { Agent, Handoff, Runner, UserError, run, tool, type HandoffInputData, type JsonValue, type RunStreamEvent, type StepRunner } from '../src/index.js';
import { recordingTracer } from './helpers.js';

// What the run does when the model calls a handoff (docs/guide/handoffs.md, the core README's step
// boundaries, and the reference's `executeHandoffCalls`, read for behaviour):
// - the run goes on with the target agent; the call is answered with the transfer message
//   `{"assistant":"<target name>"}` in a `handoff_output_item` from the source to the target;
// - an input filter decides what the next agent sees: the handoff's own, else the runner's
//   `handoffInputFilter`; it gets the run's input, the items before this turn, the items of this
//   turn (the handoff's answer included) and the run context;
// - a handoff callback is a step `handoff:{callId}` whose recorded result is the target's name.

function lookupTool() {
  return tool({ name: 'lookup', description: 'l', parameters: z.object({}), execute: () => 'found' });
}

/** Triage calls a tool in turn 1 and hands off to Billing in turn 2; Billing answers. */
function triageToBilling(options: { handoffs?: (billing: Agent) => Array<Agent | Handoff> } = {}) {
  const billingModel = new ScriptedModel([[assistantMessage('billed')]]);
  const billing = new Agent({ name: 'Billing', model: billingModel });
  const triageModel = new ScriptedModel([
    [functionCall('lookup', {}, { callId: 'l1' })],
    [functionCall('transfer_to_Billing', {}, { callId: 'h1' })],
  ]);
  const triage = new Agent({ name: 'Triage', model: triageModel, tools: [lookupTool()], handoffs: options.handoffs?.(billing) ?? [billing] });
  return { triage, billing, billingModel, triageModel };
}

const types = (items: ReadonlyArray<{ type: string }>) => items.map((item) => item.type);

describe('executing a handoff', () => {
  it('answers the call with the transfer message and continues with the target agent', async () => {
    const { triage } = triageToBilling();
    const result = await run(triage, 'charge me');
    expect(result.finalOutput).toBe('billed');
    expect(result.lastAgent?.name).toBe('Billing');
    expect(types(result.newItems)).toEqual(['tool_call_item', 'tool_call_output_item', 'handoff_call_item', 'handoff_output_item', 'message_output_item']);
    const output = result.newItems.find((item) => item.type === 'handoff_output_item') as any;
    // The reference's getTransferMessage: JSON.stringify({ assistant: agent.name }).
    expect(output.rawItem).toMatchObject({ type: 'function_call_result', callId: 'h1', name: 'transfer_to_Billing', output: { type: 'text', text: '{"assistant":"Billing"}' } });
    expect(output.sourceAgent.name).toBe('Triage');
    expect(output.targetAgent.name).toBe('Billing');
  });

  it('streams the handoff item before the agent update, and emits agent_handoff on the runner and the source agent', async () => {
    const { triage } = triageToBilling();
    const runner = new Runner();
    const heard: string[] = [];
    runner.on('agent_handoff', (_ctx, from, to) => heard.push(`runner:${from.name}->${to.name}`));
    triage.on('agent_handoff', (_ctx, to) => heard.push(`agent:Triage->${to.name}`));
    const result = await runner.run(triage, 'charge me', { stream: true });
    const events: RunStreamEvent[] = [];
    for await (const event of result) events.push(event);
    await result.completed;
    const labels = events
      .filter((event) => event.type === 'agent_updated_stream_event' || (event.type === 'run_item_stream_event' && event.name.startsWith('handoff')))
      .map((event) => (event.type === 'agent_updated_stream_event' ? `agent:${event.agent.name}` : (event as { name: string }).name));
    // (Whether the starting agent is announced too is not this test's business.)
    expect(labels.slice(labels.indexOf('handoff_requested'))).toEqual(['handoff_requested', 'handoff_occurred', 'agent:Billing']);
    expect(heard.sort()).toEqual(['agent:Triage->Billing', 'runner:Triage->Billing']);
  });

  it("gives the runner's handoffInputFilter the run input, the earlier items, this turn's items and the context", async () => {
    const { triage, billingModel } = triageToBilling();
    const seen: HandoffInputData[] = [];
    const result = await run(triage, 'charge me', {
      context: { user: 'u1' },
      handoffInputFilter: (data) => {
        seen.push(data);
        // The next agent sees a rewritten input and only this turn's items.
        return { inputHistory: [{ role: 'user', content: 'rewritten' }], preHandoffItems: [], newItems: data.newItems };
      },
    });
    expect(result.finalOutput).toBe('billed');
    expect(seen).toHaveLength(1);
    const data = seen[0]!;
    expect(data.inputHistory).toBe('charge me');
    expect(types(data.preHandoffItems)).toEqual(['tool_call_item', 'tool_call_output_item']);
    expect(types(data.newItems)).toEqual(['handoff_call_item', 'handoff_output_item']);
    expect((data.runContext as { context: unknown }).context).toEqual({ user: 'u1' });
    const input = inputOf(billingModel.firstCall);
    expect(input).toHaveLength(3);
    expect(input[0]).toMatchObject({ role: 'user', content: 'rewritten' });
    expect(input[1]).toMatchObject({ type: 'function_call', callId: 'h1' });
    expect(input[2]).toMatchObject({ type: 'function_call_result', callId: 'h1' });
  });

  it('without a filter, the next agent sees the whole history', async () => {
    const { triage, billingModel } = triageToBilling();
    await run(triage, 'charge me');
    const input = inputOf(billingModel.firstCall);
    expect(input.map((item) => ('type' in item && item.type ? item.type : 'message'))).toEqual([
      'message',
      'function_call',
      'function_call_result',
      'function_call',
      'function_call_result',
    ]);
  });

  it("a handoff's own inputFilter wins over the runner's", async () => {
    const calls: string[] = [];
    const { triage, billingModel } = triageToBilling({
      handoffs: (billing) => {
        const own = new Handoff(billing, () => billing);
        own.inputFilter = (data) => (calls.push('own'), { ...data, preHandoffItems: [] });
        return [own];
      },
    });
    await run(triage, 'charge me', { handoffInputFilter: (data) => (calls.push('runner'), data) });
    expect(calls).toEqual(['own']);
    expect(inputOf(billingModel.firstCall)).toHaveLength(3);
  });

  it('a filter that is not callable fails the run with the reference\'s UserError', async () => {
    const { triage, billingModel } = triageToBilling({
      handoffs: (billing) => {
        const own = new Handoff(billing, () => billing);
        own.inputFilter = 'keep everything' as never;
        return [own];
      },
    });
    const error = await run(triage, 'charge me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('Invalid handoff input filter: not callable');
    expect(billingModel.calls).toHaveLength(0);
  });

  describe('a filter must return HandoffInputData', () => {
    const ok = { inputHistory: 'x', preHandoffItems: [], newItems: [] };
    it.each([
      ['null', null, 'got null'],
      ['a number', 7, 'got number'],
      ['a string', 'all of it', 'got string'],
      ['an inputHistory that is neither a string nor an array', { ...ok, inputHistory: 7 }, '`inputHistory` must be a string or an array'],
      ['an inputHistory with a null entry', { ...ok, inputHistory: [{ role: 'user', content: 'a' }, null] }, '`inputHistory[1]` is not a protocol item'],
      ['an inputHistory with an undefined entry', { ...ok, inputHistory: [undefined] }, '`inputHistory[0]` is not a protocol item'],
      ['an inputHistory with a string entry', { ...ok, inputHistory: ['hello'] }, '`inputHistory[0]` is not a protocol item'],
      ['an inputHistory entry with neither type nor role', { ...ok, inputHistory: [{ content: 'a' }] }, '`inputHistory[0]` is not a protocol item'],
      ['preHandoffItems that are not an array', { ...ok, preHandoffItems: 'none' }, '`preHandoffItems` must be an array of run items'],
      ['newItems that are missing', { inputHistory: 'x', preHandoffItems: [] }, '`newItems` must be an array of run items'],
      ['a newItems entry that is undefined', { ...ok, newItems: [undefined] }, '`newItems[0]` is not a run item'],
      ['a newItems entry that is null', { ...ok, newItems: [null] }, '`newItems[0]` is not a run item'],
      ['a newItems entry of an unknown type', { ...ok, newItems: [{ type: 'note', rawItem: {} }] }, '`newItems[0]` is not a run item'],
      ['a newItems entry without a type', { ...ok, newItems: [{ rawItem: {} }] }, '`newItems[0]` is not a run item'],
      ['a preHandoffItems entry without its raw item', { ...ok, preHandoffItems: [{ type: 'message_output_item' }] }, '`preHandoffItems[0]` is not a run item'],
    ])('%s is a UserError naming the handoff and the problem', async (_label, returned, problem) => {
      const { triage, billingModel } = triageToBilling();
      const error = await run(triage, 'charge me', { handoffInputFilter: () => returned as never }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toContain('Handoff input filter for "transfer_to_Billing" must return HandoffInputData');
      expect((error as Error).message).toContain(problem);
      expect(billingModel.calls).toHaveLength(0);
    });

    it('accepts protocol items with only a role (easy input) or only a type, and run items of every kind it passed', async () => {
      const { triage, billingModel } = triageToBilling();
      await run(triage, 'charge me', {
        handoffInputFilter: (data) => ({
          inputHistory: [{ role: 'user', content: 'first' }, { type: 'function_call_result', callId: 'l0', name: 'lookup', status: 'completed', output: { type: 'text', text: 'x' } } as never],
          preHandoffItems: data.preHandoffItems,
          newItems: data.newItems,
        }),
      });
      expect(inputOf(billingModel.firstCall)).toHaveLength(6);
    });
  });

  describe('a callback that does not produce an agent', () => {
    it.each([
      ['null', null],
      ['a name', 'Billing'],
      ['an object without a name', { instructions: 'x' }],
      ['a function (which has a name)', function Billing() {}],
    ])('returning %s fails the run with a UserError naming the handoff', async (_label, produced) => {
      const { triage, billingModel } = triageToBilling({ handoffs: (billing) => [new Handoff(billing, () => produced as never)] });
      const error = await run(triage, 'charge me').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toBe('Handoff "transfer_to_Billing" did not produce an agent.');
      expect(billingModel.calls).toHaveLength(0);
    });
  });

  it("traces a baton.handoff span with the source, the target and the tool (core README's span table)", async () => {
    const { triage } = triageToBilling();
    const { tracer, spans } = recordingTracer();
    await new Runner({ tracer }).run(triage, 'charge me');
    const handoffSpans = spans.filter((s) => s.name === 'baton.handoff');
    expect(handoffSpans).toHaveLength(1);
    expect(handoffSpans[0]!.attributes).toEqual(
      expect.objectContaining({ 'baton.handoff.from': 'Triage', 'baton.handoff.to': 'Billing', 'baton.handoff.tool': 'transfer_to_Billing' }),
    );
    expect(handoffSpans[0]!.attributes).not.toHaveProperty('baton.handoff.ignored');
  });

  it('names the handoff calls it ignored (only the first of a response is taken) on the span, comma-separated', async () => {
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([[assistantMessage('billed')]]) });
    const refunds = new Agent({ name: 'Refunds', model: new ScriptedModel([[assistantMessage('refunded')]]) });
    const support = new Agent({ name: 'Support', model: new ScriptedModel([[assistantMessage('supported')]]) });
    const triage = new Agent({
      name: 'Triage',
      model: new ScriptedModel([
        [
          functionCall('transfer_to_Billing', {}, { callId: 'h1' }),
          functionCall('transfer_to_Refunds', {}, { callId: 'h2' }),
          functionCall('transfer_to_Support', {}, { callId: 'h3' }),
        ],
      ]),
      handoffs: [billing, refunds, support],
    });
    const { tracer, spans } = recordingTracer();
    const result = await new Runner({ tracer }).run(triage, 'money');
    expect(result.lastAgent?.name).toBe('Billing');
    expect(spans.find((s) => s.name === 'baton.handoff')?.attributes).toMatchObject({
      'baton.handoff.ignored': 'transfer_to_Refunds,transfer_to_Support',
      'baton.handoff.to': 'Billing',
    });
  });
});

describe('a handoff as a step', () => {
  function recorder() {
    const tape = new Map<string, JsonValue>();
    const kinds = new Map<string, string>();
    const runner: StepRunner = {
      runStep: (step, effect) =>
        effect.pipe(
          Effect.tap((value) =>
            Effect.sync(() => {
              kinds.set(step.key, step.kind);
              tape.set(step.key, JSON.parse(JSON.stringify(step.codec.encode(value)) ?? 'null'));
            }),
          ),
        ),
    };
    return { runner, tape, kinds };
  }
  function replayer(tape: Map<string, JsonValue>) {
    const runner: StepRunner = {
      runStep: (step) => (tape.has(step.key) ? Effect.sync(() => step.codec.decode(tape.get(step.key)!)) : Effect.die(new Error(`no recorded ${step.key}`))),
    };
    return runner;
  }

  /** Triage hands off through a handoff to Billing whose callback picks Billing's successor, BillingV2 (reachable from Triage through Billing). */
  function redirecting(live: boolean) {
    const v2 = new Agent({ name: 'BillingV2', model: live ? new ScriptedModel([[assistantMessage('v2 billed')], [assistantMessage('v2 billed')]]) : new ScriptedModel([[assistantMessage('v2 billed')]]) });
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([]), handoffs: [v2] });
    const triage = new Agent({
      name: 'Triage',
      model: new ScriptedModel(live ? [[functionCall('transfer_to_Billing', {}, { callId: 'h1' })]] : []),
      handoffs: [new Handoff(billing, () => v2)],
    });
    return triage;
  }

  it("records the target agent's name, and a replay finds that agent in the graph without calling back", async () => {
    const { runner, tape, kinds } = recorder();
    const first = await new Runner({ stepRunner: runner }).run(redirecting(true), 'money');
    expect(first.lastAgent?.name).toBe('BillingV2');
    expect(tape.get('handoff:h1')).toBe('BillingV2');
    // StepKind 'handoff': "a handoff callback" (definitions/stepRunner.ts, the core README).
    expect(kinds.get('handoff:h1')).toBe('handoff');
    // The replay's model for Triage has no script: its recorded answer stands in for it.
    const second = await new Runner({ stepRunner: replayer(tape) }).run(redirecting(false), 'money');
    expect(second.lastAgent?.name).toBe('BillingV2');
    expect(second.finalOutput).toBe('v2 billed');
  });

  it('a replay continues with the agent the handoff declared, also when another agent of the graph has its name', async () => {
    const build = (live: boolean) => {
      const oldBilling = new Agent({ name: 'Billing', instructions: 'the old desk', model: new ScriptedModel([]) });
      const newBilling = new Agent({ name: 'Billing', instructions: 'the new desk', model: new ScriptedModel(live ? [[assistantMessage('new desk billed')]] : []) });
      const toNew = new Handoff(newBilling, () => newBilling);
      toNew.toolName = 'transfer_to_new_billing';
      const triage = new Agent({
        name: 'Triage',
        model: new ScriptedModel(live ? [[functionCall('transfer_to_new_billing', {}, { callId: 'h1' })]] : []),
        handoffs: [oldBilling, toNew],
      });
      return { triage, newBilling };
    };
    const { runner, tape } = recorder();
    const live = build(true);
    const first = await new Runner({ stepRunner: runner }).run(live.triage, 'money');
    expect(first.lastAgent).toBe(live.newBilling);
    const replayed = build(false);
    const second = await new Runner({ stepRunner: replayer(tape) }).run(replayed.triage, 'money');
    expect(second.finalOutput).toBe('new desk billed');
    expect(second.lastAgent).toBe(replayed.newBilling);
  });

  it('a recorded name that is not in the agent graph fails the replay with a UserError naming it', async () => {
    const { runner, tape } = recorder();
    await new Runner({ stepRunner: runner }).run(redirecting(true), 'money');
    tape.set('handoff:h1', 'Ghost');
    const error = await new Runner({ stepRunner: replayer(tape) }).run(redirecting(false), 'money').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('"Ghost"');
    expect((error as Error).message).toContain('not in the agent graph');
  });

  it('a callback that produced no agent replays to the same failure (its result is recorded as null)', async () => {
    const build = () => {
      const billing = new Agent({ name: 'Billing', model: new ScriptedModel([[assistantMessage('billed')]]) });
      return new Agent({
        name: 'Triage',
        model: new ScriptedModel([[functionCall('transfer_to_Billing', {}, { callId: 'h1' })]]),
        handoffs: [new Handoff(billing, () => function Billing() {} as never)],
      });
    };
    const { runner, tape } = recorder();
    const first = await new Runner({ stepRunner: runner }).run(build(), 'money').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(UserError);
    expect(tape.get('handoff:h1')).toBeNull();
    const second = await new Runner({ stepRunner: replayer(tape) }).run(build(), 'money').catch((e: unknown) => e);
    expect(second).toBeInstanceOf(UserError);
  });
});
