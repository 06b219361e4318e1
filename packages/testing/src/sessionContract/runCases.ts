import { expect } from 'vitest';
import { InputGuardrailTripwireTriggered, OutputGuardrailTripwireTriggered, type AgentInputItem, type Session } from '@baton/types';
import { ScriptedModel } from '../scriptedModel.js';
import { assistantMessage, functionCall } from '../builders.js';
import { inputOf } from '../recordedCalls.js';
import type { CaseContext, ContractRunResult, SessionCase, SessionContractRuntime } from './contractTypes.js';
import { outline, user } from './items.js';

const NO_PARAMETERS = { type: 'object', properties: {}, required: [], additionalProperties: false };
const QUERY_PARAMETERS = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false };
const tripwire = (name: string) => [{ name, execute: async () => ({ outputInfo: null, tripwireTriggered: true }) }];

/** A run that must fail with `kind`; returns nothing, the session is what is checked. */
async function blocked(runtime: SessionContractRuntime, agent: unknown, input: string, session: Session, kind: new (...args: any[]) => Error, stream = false) {
  const outcome = runtime.run(agent, input, { session, stream }).then(async (result: ContractRunResult) => {
    await result.completed;
    return result;
  });
  await expect(outcome).rejects.toBeInstanceOf(kind);
}

function countingTool(runtime: SessionContractRuntime, name: string, counts: Map<string, number>, options: { needsApproval?: boolean; output?: string } = {}) {
  return runtime.tool({
    name,
    description: `${name} (counts its executions)`,
    parameters: options.needsApproval === undefined ? NO_PARAMETERS : QUERY_PARAMETERS,
    strict: true,
    ...(options.needsApproval ? { needsApproval: async () => true } : {}),
    execute: async (input: { query?: string }) => {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return options.output ?? `${name}:${input.query ?? ''}`;
    },
  });
}

async function runToEnd(runtime: SessionContractRuntime, agent: unknown, input: unknown, session: Session, stream = false): Promise<ContractRunResult> {
  const result = await runtime.run(agent, input, { session, stream });
  await result.completed;
  return result;
}

/** What a run reads from and writes to the session, as the reference's runner does with its `MemorySession`. */
export const runCases: SessionCase[] = [
  {
    title: 'a run reads the history before its input and appends its input and answer',
    async run({ options: { runtime }, open, reopen, newId }) {
      const session = await open(newId());
      await session.addItems([user('earlier question'), assistantMessage('earlier answer')]);
      const model = new ScriptedModel([[assistantMessage('second answer')]]);
      const result = await runToEnd(runtime, new runtime.Agent({ name: 'Historian', model }), 'second question', session);
      expect(result.finalOutput).toBe('second answer');
      expect(outline(inputOf(model.lastCall))).toEqual(['user:earlier question', 'assistant:earlier answer', 'user:second question']);
      expect(outline(await (await reopen(session)).getItems())).toEqual(['user:earlier question', 'assistant:earlier answer', 'user:second question', 'assistant:second answer']);
    },
  },
  {
    title: 'a streamed run writes the same turn',
    async run({ options: { runtime }, open, newId }) {
      const session = await open(newId());
      const model = new ScriptedModel([[functionCall('lookup', {}, { callId: 'stream-call' })], [assistantMessage('streamed answer')]]);
      const counts = new Map<string, number>();
      const agent = new runtime.Agent({ name: 'Streamer', model, tools: [countingTool(runtime, 'lookup', counts, { output: 'found' })] });
      const result = await runToEnd(runtime, agent, 'stream it', session, true);
      expect(result.finalOutput).toBe('streamed answer');
      expect(outline(await session.getItems())).toEqual(['user:stream it', 'call:lookup', 'result:lookup=found', 'assistant:streamed answer']);
    },
  },
  {
    title: 'sessionInputCallback: the model sees what the callback returns, the session keeps its history and the new turn',
    async run({ options: { runtime }, open, newId }) {
      const session = await open(newId());
      await session.addItems([user('older question'), assistantMessage('older answer'), user('newest question')]);
      const model = new ScriptedModel([[assistantMessage('answer')]]);
      let seen: { history: AgentInputItem[]; newItems: AgentInputItem[] } | undefined;
      await runToEnd(runtime, new runtime.Agent({ name: 'Plain', model }), 'fresh question', session);
      const filtered = new ScriptedModel([[assistantMessage('filtered answer')]]);
      const result = await runtime.run(new runtime.Agent({ name: 'Filtered', model: filtered }), [user('another question')], {
        session,
        sessionInputCallback: async (history: AgentInputItem[], newItems: AgentInputItem[]) => {
          seen = { history, newItems };
          return history.filter((item) => (item as { role?: string }).role === 'user').slice(-1).concat(newItems);
        },
      });
      expect(result.finalOutput).toBe('filtered answer');
      expect(outline(seen!.history)).toEqual(['user:older question', 'assistant:older answer', 'user:newest question', 'user:fresh question', 'assistant:answer']);
      expect(outline(seen!.newItems)).toEqual(['user:another question']);
      expect(outline(inputOf(filtered.lastCall))).toEqual(['user:fresh question', 'user:another question']);
      expect(outline(await session.getItems())).toEqual([
        'user:older question',
        'assistant:older answer',
        'user:newest question',
        'user:fresh question',
        'assistant:answer',
        'user:another question',
        'assistant:filtered answer',
      ]);
    },
  },
  {
    title: 'sessionInputCallback: the new input as the callback changed it is what the session keeps',
    async run({ options: { runtime }, open, newId }) {
      const session = await open(newId());
      const model = new ScriptedModel([[assistantMessage('answer')]]);
      await runtime.run(new runtime.Agent({ name: 'Redactor', model }), 'my card is 4242', {
        session,
        sessionInputCallback: (history: AgentInputItem[], newItems: AgentInputItem[]) => history.concat(newItems.map((item) => ({ ...item, content: '[redacted]' }) as AgentInputItem)),
      });
      expect(outline(inputOf(model.lastCall))).toEqual(['user:[redacted]']);
      expect(outline(await session.getItems())).toEqual(['user:[redacted]', 'assistant:answer']);
    },
  },
  {
    title: 'sessionInputCallback returning something other than an array fails the run and writes nothing',
    async run({ options: { runtime }, open, newId }) {
      const session = await open(newId());
      await session.addItems([user('history')]);
      const model = new ScriptedModel([[assistantMessage('never')]]);
      await expect(
        runtime.run(new runtime.Agent({ name: 'Invalid', model }), 'hello', { session, sessionInputCallback: () => 'not-an-array' }),
      ).rejects.toThrow(/must return an array/);
      expect(outline(await session.getItems())).toEqual(['user:history']);
    },
  },
  {
    title: 'sessionInputCallback returning something other than an array fails with the reference’s message',
    async run({ options: { runtime }, open, newId }) {
      const session = await open(newId());
      const model = new ScriptedModel([[assistantMessage('never')]]);
      await expect(
        runtime.run(new runtime.Agent({ name: 'Invalid', model }), 'hello', { session, sessionInputCallback: () => 'not-an-array' }),
      ).rejects.toThrow('Session input callback must return an array of AgentInputItem objects.');
    },
  },
  {
    title: 'an input guardrail tripwire writes nothing',
    async run({ options: { runtime }, open, newId }) {
      const session = await open(newId());
      const agent = new runtime.Agent({ name: 'Guarded', model: new ScriptedModel([[assistantMessage('never seen')]]), inputGuardrails: tripwire('refuse input') });
      await blocked(runtime, agent, 'forbidden request', session, InputGuardrailTripwireTriggered);
      expect(await session.getItems()).toEqual([]);
    },
  },
  {
    title: 'an output guardrail tripwire keeps the user input, not the blocked answer',
    async run({ options: { runtime }, open, newId }) {
      for (const stream of [false, true]) {
        const session = await open(newId());
        const agent = new runtime.Agent({ name: 'Guarded', model: new ScriptedModel([[assistantMessage('secret answer')]]), outputGuardrails: tripwire('refuse output') });
        await blocked(runtime, agent, 'tell me', session, OutputGuardrailTripwireTriggered, stream);
        expect(outline(await session.getItems()), stream ? 'streamed' : 'not streamed').toEqual(['user:tell me']);
      }
    },
  },
  {
    title: 'a blocked final tool output keeps the committed call, its output withheld',
    async run({ options: { runtime }, open, newId }) {
      const counts = new Map<string, number>();
      const session = await open(newId());
      const agent = new runtime.Agent({
        name: 'Committer',
        model: new ScriptedModel([[functionCall('commit', {}, { callId: 'commit-1' })]]),
        tools: [countingTool(runtime, 'commit', counts, { output: 'committed-result' })],
        toolUseBehavior: 'stop_on_first_tool',
        outputGuardrails: tripwire('refuse output'),
      });
      await blocked(runtime, agent, 'use commit', session, OutputGuardrailTripwireTriggered);
      expect(counts.get('commit')).toBe(1);
      expect(outline(await session.getItems())).toEqual(['user:use commit', 'call:commit', 'result:commit=Output withheld by an output guardrail.']);
    },
  },
  {
    title: 'a blocked answer after a tool keeps the tool call and its result',
    async run({ options: { runtime }, open, newId }) {
      const counts = new Map<string, number>();
      const session = await open(newId());
      const agent = new runtime.Agent({
        name: 'Committer',
        model: new ScriptedModel([[functionCall('commit', {}, { callId: 'commit-2' })], [assistantMessage('blocked text')]]),
        tools: [countingTool(runtime, 'commit', counts, { output: 'committed-result' })],
        outputGuardrails: tripwire('refuse output'),
      });
      await blocked(runtime, agent, 'use commit', session, OutputGuardrailTripwireTriggered);
      expect(outline(await session.getItems())).toEqual(['user:use commit', 'call:commit', 'result:commit=committed-result']);
    },
  },
  {
    title: 'approvals: a paused turn keeps the pending call, an approved or rejected resume appends the result once',
    run: approvalScenario,
  },
  {
    title: 'an approved or rejected resume blocked by an output guardrail keeps the decided call’s result, not the blocked answer',
    async run({ options: { runtime }, open, newId }) {
      const cases = [
        { behavior: 'run_llm_again', decision: 'approve', result: 'paid' },
        { behavior: 'run_llm_again', decision: 'reject', result: 'Tool execution was not approved.' },
        { behavior: 'stop_on_first_tool', decision: 'approve', result: 'Output withheld by an output guardrail.' },
        { behavior: 'stop_on_first_tool', decision: 'reject', result: 'Output withheld by an output guardrail.' },
      ] as const;
      for (const { behavior, decision, result } of cases) {
        const counts = new Map<string, number>();
        let trip = false;
        const session = await open(newId());
        const agent = new runtime.Agent({
          name: 'Blocked after approval',
          model: new ScriptedModel([
            [functionCall('pay', { query: 'invoice 7' }, { callId: 'pay-1' })],
            ...(behavior === 'run_llm_again' ? [[assistantMessage('blocked answer')]] : []),
          ]),
          tools: [countingTool(runtime, 'pay', counts, { needsApproval: true, output: 'paid' })],
          toolUseBehavior: behavior,
          outputGuardrails: [{ name: 'refuse after resume', execute: async () => ({ outputInfo: null, tripwireTriggered: trip }) }],
        });
        const paused = await runtime.run(agent, 'pay invoice 7', { session });
        paused.state[decision](paused.interruptions[0]);
        trip = true;
        await expect(runtime.run(agent, paused.state, { session }), `${behavior}/${decision}`).rejects.toBeInstanceOf(OutputGuardrailTripwireTriggered);
        expect(outline(await session.getItems()), `${behavior}/${decision}`).toEqual(['user:pay invoice 7', 'call:pay', `result:pay=${result}`]);
        expect(counts.get('pay') ?? 0, `${behavior}/${decision}`).toBe(decision === 'approve' ? 1 : 0);
      }
    },
  },
  {
    title: 'run-context aware: one session object keeps each conversation of the context apart',
    unsupported: (options) => (options.makeContextSession ? undefined : 'this kind has no run-context-aware variant'),
    async run({ options, newId }) {
      const { runtime } = options;
      const ids = { alice: newId(), bob: newId() };
      const session = await options.makeContextSession!((runContext) => ids[runContext!.context.conversation as keyof typeof ids]);
      const model = new ScriptedModel([[assistantMessage('hello alice')], [assistantMessage('hello bob')], [assistantMessage('again alice')]]);
      const agent = new runtime.Agent({ name: 'Tenant', model });
      await runtime.run(agent, 'I am alice', { session, context: { conversation: 'alice' } });
      await runtime.run(agent, 'I am bob', { session, context: { conversation: 'bob' } });
      await runtime.run(agent, 'who am I?', { session, context: { conversation: 'alice' } });
      expect(outline(inputOf(model.lastCall))).toEqual(['user:I am alice', 'assistant:hello alice', 'user:who am I?']);
      const alice = await options.makeSession(ids.alice);
      const bob = await options.makeSession(ids.bob);
      if (options.persistent) {
        expect(outline(await alice.getItems())).toEqual(['user:I am alice', 'assistant:hello alice', 'user:who am I?', 'assistant:again alice']);
        expect(outline(await bob.getItems())).toEqual(['user:I am bob', 'assistant:hello bob']);
      }
    },
  },
];

/**
 * Three turns on one conversation, each pausing for approval (the reference's HITL session
 * scenario): approve, approve on the conversation reopened, reject. Each tool runs once per
 * approval, and the history holds, per turn, the input, the call and its result.
 */
async function approvalScenario({ options: { runtime }, open, reopen, newId }: CaseContext): Promise<void> {
  const counts = new Map<string, number>();
  const echo = countingTool(runtime, 'approved_echo', counts, { needsApproval: true });
  const note = countingTool(runtime, 'approved_note', counts, { needsApproval: true });
  const steps = [
    { message: 'Fetch profile 104.', tool: 'approved_echo', decision: 'approve', output: 'approved_echo:Fetch profile 104.' },
    { message: 'Update note 104.', tool: 'approved_note', decision: 'approve', output: 'approved_note:Update note 104.' },
    { message: 'Delete note 104.', tool: 'approved_echo', decision: 'reject', output: 'Tool execution was not approved.' },
  ] as const;
  let session = await open(newId());
  for (const [turn, step] of steps.entries()) {
    const callId = `call_${turn}`;
    const model = new ScriptedModel([[functionCall(step.tool, { query: step.message }, { callId })]]);
    const agent = new runtime.Agent({ name: `Approver ${turn}`, model, tools: [echo, note], toolUseBehavior: 'stop_on_first_tool' });
    const paused = await runtime.run(agent, step.message, { session });
    expect(paused.interruptions).toHaveLength(1);
    const pending = outline(await session.getItems());
    expect(pending.slice(-2)).toEqual([`user:${step.message}`, `call:${step.tool}`]);
    paused.state[step.decision](paused.interruptions[0]);
    if (turn === 1) session = await reopen(session);
    const resumed = await runtime.run(agent, paused.state, { session });
    expect(resumed.interruptions).toHaveLength(0);
    expect(resumed.finalOutput).toBe(step.output);
    const history = outline(await session.getItems());
    expect(history.slice(-3)).toEqual([`user:${step.message}`, `call:${step.tool}`, `result:${step.tool}=${step.output}`]);
    expect(history.filter((entry) => entry.startsWith('user:'))).toHaveLength(turn + 1);
    expect(history.filter((entry) => entry.startsWith('call:'))).toHaveLength(turn + 1);
    expect(history.filter((entry) => entry.startsWith('result:'))).toHaveLength(turn + 1);
  }
  expect(counts.get('approved_echo')).toBe(1);
  expect(counts.get('approved_note')).toBe(1);
}
