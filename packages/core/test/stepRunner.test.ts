import { Effect } from 'effect';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  RunState,
  Runner,
  stepRunnerLayer,
  tool,
  type JsonValue,
  type Model,
  type RunResult,
  type RunStreamEvent,
  type StepRunner,
} from '../src/index.js';

// Deterministic replay: a run recorded step by step, then run again from the record (the model and
// the tools throw if called) gives the same items, output, events and serialized state.

interface Tape {
  readonly results: Map<string, JsonValue>;
  readonly starts: string[];
  readonly duplicates: string[];
}

function recording(): { runner: StepRunner; tape: Tape } {
  const tape: Tape = { results: new Map(), starts: [], duplicates: [] };
  const runner: StepRunner = {
    runStep: (step, effect) =>
      Effect.suspend(() => {
        if (tape.starts.includes(step.key)) tape.duplicates.push(step.key);
        tape.starts.push(step.key);
        return effect.pipe(Effect.tap((value) => Effect.sync(() => tape.results.set(step.key, JSON.parse(JSON.stringify(step.codec.encode(value)))))));
      }),
  };
  return { runner, tape };
}

function replaying(tape: Tape): { runner: StepRunner; starts: string[] } {
  const starts: string[] = [];
  const runner: StepRunner = {
    runStep: (step) =>
      Effect.suspend(() => {
        starts.push(step.key);
        if (!tape.results.has(step.key)) return Effect.die(new Error(`no recorded result for ${step.key}`));
        return Effect.succeed(step.codec.decode(tape.results.get(step.key)!));
      }),
  };
  return { runner, starts };
}

const failingModel: Model = {
  getResponse: () => Promise.reject(new Error('the model was called during replay')),
  // eslint-disable-next-line require-yield
  getStreamedResponse: async function* () {
    throw new Error('the model was called during replay');
  },
} as unknown as Model;

type Live = boolean;

function summary(result: RunResult<any, any>) {
  return {
    newItems: result.newItems.map((item) => JSON.stringify(item.toJSON())),
    finalOutput: result.finalOutput,
    interruptions: result.interruptions.length,
    state: result.state.toString(),
  };
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Tools that count their runs and throw when `live` is false. */
function tools(live: Live, ran: string[]) {
  const body = (name: string, delay: number) => async (input: { q: string }) => {
    if (!live) throw new Error(`${name} ran during replay`);
    ran.push(name);
    await sleep(delay);
    return `${name}:${input.q}`;
  };
  return {
    // Slow to decide that it needs no approval: without a fixed start order, the others would start first.
    slowStart: tool({ name: 'slow_start', description: 's', parameters: z.object({ q: z.string() }), needsApproval: async () => (await sleep(30), false), execute: body('slow_start', 1) }),
    fast: tool({ name: 'fast', description: 'f', parameters: z.object({ q: z.string() }), execute: body('fast', 5) }),
    checked: tool({
      name: 'checked',
      description: 'c',
      parameters: z.object({ q: z.string() }),
      inputGuardrails: [{ type: 'tool_input', name: 'never_blocks', run: async () => ({ behavior: { type: 'allow' } }) } as never],
      outputGuardrails: [{ type: 'tool_output', name: 'keeps', run: async () => ({ behavior: { type: 'allow' } }) } as never],
      execute: body('checked', 2),
    }),
    pay: tool({ name: 'pay', description: 'p', parameters: z.object({ q: z.string() }), needsApproval: true, execute: body('pay', 1) }),
  };
}

function model(live: Live, steps: ConstructorParameters<typeof ScriptedModel>[0]): Model {
  return live ? new ScriptedModel(steps) : failingModel;
}

describe('step runner: deterministic replay', () => {
  it('concurrent tool calls start their steps in call order, and replay gives the same run', async () => {
    const build = (live: Live, ran: string[]) => {
      const t = tools(live, ran);
      return new Agent({
        name: 'Worker',
        model: model(live, [
          [functionCall('slow_start', { q: 'a' }, { callId: 'c1' }), functionCall('fast', { q: 'b' }, { callId: 'c2' }), functionCall('checked', { q: 'c' }, { callId: 'c3' })],
          [assistantMessage('all done')],
        ]),
        tools: [t.slowStart, t.fast, t.checked],
      });
    };
    const ran: string[] = [];
    const { runner, tape } = recording();
    const first = await new Runner({ stepRunner: runner }).run(build(true, ran), 'go');
    expect(first.finalOutput).toBe('all done');
    expect(tape.duplicates).toEqual([]);
    expect(tape.starts.filter((key) => /^tool:c\d$/.test(key))).toEqual(['tool:c1', 'tool:c2', 'tool:c3']);
    expect(tape.starts).toEqual([
      'id:run',
      't1:model',
      'tool:c1',
      'tool:c2',
      'tool:c3:guardrail:input:never_blocks',
      'tool:c3',
      'tool:c3:guardrail:output:keeps',
      't2:model',
    ]);
    expect(first.state.runId).toMatch(/^[0-9a-f-]{36}$/);

    const replay = replaying(tape);
    const second = await new Runner({ stepRunner: replay.runner }).run(build(false, ran), 'go');
    expect(summary(second)).toEqual(summary(first));
    expect(replay.starts).toEqual(tape.starts);
    expect(ran.sort()).toEqual(['checked', 'fast', 'slow_start']);
  });

  it('tools receive the run id and call id', async () => {
    const seen: Array<{ runId: string | undefined; callId: string }> = [];
    const probe = tool({
      name: 'probe',
      description: 'p',
      parameters: z.object({}),
      execute: (_input, _ctx, details) => {
        seen.push({ runId: details?.runId, callId: details!.toolCall.callId });
        return 'ok';
      },
    });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[functionCall('probe', {}, { callId: 'p1' })], [assistantMessage('done')]]), tools: [probe] });
    const result = await new Runner().run(agent, 'go');
    expect(seen).toEqual([{ runId: result.state.runId, callId: 'p1' }]);
    expect(JSON.parse(result.state.toString()).runId).toBe(result.state.runId);
  });

  it('an agent tool, a handoff and guardrails (blocking and parallel) replay the same', async () => {
    const build = (live: Live) => {
      const researcher = new Agent({ name: 'Researcher', model: model(live, [[assistantMessage('42')]]) });
      const billing = new Agent({
        name: 'Billing',
        model: model(live, [[assistantMessage('billed')]]),
        outputGuardrails: [
          {
            name: 'polite',
            execute: async () => {
              if (!live) throw new Error('guardrail ran during replay');
              return { tripwireTriggered: false, outputInfo: 'fine' };
            },
          },
        ],
      });
      const guard = (name: string, runInParallel: boolean) => ({
        name,
        runInParallel,
        execute: async () => {
          if (!live) throw new Error('guardrail ran during replay');
          await sleep(runInParallel ? 5 : 1);
          return { tripwireTriggered: false, outputInfo: { checked: name } };
        },
      });
      return new Agent({
        name: 'Triage',
        model: model(live, [
          [functionCall('ask', { input: 'meaning?' }, { callId: 'a1' })],
          [functionCall('transfer_to_Billing', {}, { callId: 'h1' })],
        ]),
        tools: [researcher.asTool({ toolName: 'ask', toolDescription: 'ask the researcher' })],
        handoffs: [billing],
        inputGuardrails: [guard('blocking', false), guard('parallel_1', true), guard('parallel_2', true)],
      });
    };
    const { runner, tape } = recording();
    const first = await new Runner({ stepRunner: runner }).run(build(true), 'bill me');
    expect(first.finalOutput).toBe('billed');
    expect(tape.duplicates).toEqual([]);
    expect(tape.starts).toEqual([
      'id:run',
      't1:guardrail:input:blocking',
      't1:model',
      't1:guardrail:input:parallel_1',
      't1:guardrail:input:parallel_2',
      'tool:a1/id:run',
      'tool:a1/t1:model',
      't2:model',
      'handoff:h1',
      't3:model',
      't3:guardrail:output:polite',
    ]);
    const replay = replaying(tape);
    const second = await new Runner({ stepRunner: replay.runner }).run(build(false), 'bill me');
    expect(summary(second)).toEqual(summary(first));
    expect(second.lastAgent?.name).toBe('Billing');
    expect(replay.starts).toEqual(tape.starts);
  });

  it('a run paused for approval and resumed: both parts replay, with keys that do not collide', async () => {
    const build = (live: Live) => {
      const t = tools(live, []);
      return new Agent({
        name: 'Cashier',
        model: model(live, [[functionCall('pay', { q: 'bill' }, { callId: 'p1' })], [assistantMessage('paid')]]),
        tools: [t.pay],
      });
    };
    const play = async (runner: StepRunner, live: Live) => {
      const agent = build(live);
      const paused = await new Runner({ stepRunner: runner }).run(agent, 'pay');
      const stored = paused.state.toString();
      const state = await RunState.fromString(agent, stored);
      state.approve(state.getInterruptions()[0]!, { decidedAt: '2030-01-01T00:00:00.000Z', decidedBy: 'ops' });
      const resumed = await new Runner({ stepRunner: runner }).run(agent, state);
      return { paused: summary(paused), resumed: summary(resumed), runIds: [paused.state.runId, resumed.state.runId] };
    };
    const { runner, tape } = recording();
    const first = await play(runner, true);
    expect(first.paused.interruptions).toBe(1);
    expect(first.resumed.finalOutput).toBe('paid');
    expect(first.runIds[0]).toBe(first.runIds[1]);
    expect(tape.duplicates).toEqual([]);
    expect(tape.starts).toEqual(['id:run', 't1:model', 'tool:p1', 't2:model']);
    const replay = replaying(tape);
    expect(await play(replay.runner, false)).toEqual(first);
  });

  it('an approval decided near its expiry is judged at the recorded time on replay', async () => {
    const deadline = Date.now() + 60_000;
    const play = async (runner: StepRunner, live: Live, resumeAt?: number) => {
      const agent = new Agent({ name: 'Cashier', model: model(live, [[functionCall('pay', { q: 'bill' }, { callId: 'p1' })], [assistantMessage('paid')]]), tools: [tools(live, []).pay] });
      const paused = await new Runner({ stepRunner: runner }).run(agent, 'pay');
      const state = await RunState.fromString(agent, paused.state.toString());
      state.setApprovalExpiry(state.getInterruptions()[0]!, deadline);
      // Decided after the deadline: it counts only while the deadline has not passed.
      state.approve(state.getInterruptions()[0]!, { decidedAt: new Date(deadline + 1000).toISOString() });
      if (resumeAt !== undefined) vi.useFakeTimers({ toFake: ['Date'], now: resumeAt });
      try {
        return summary(await new Runner({ stepRunner: runner }).run(agent, state));
      } finally {
        vi.useRealTimers();
      }
    };
    const { runner, tape } = recording();
    const first = await play(runner, true);
    expect(first.finalOutput).toBe('paid');
    expect(tape.starts).toContain('t1:approvals:time');
    // Replayed after the deadline: the recorded time decides, so the call still counts as approved.
    expect(await play(replaying(tape).runner, false, deadline + 3_600_000)).toEqual(first);
    // Without the recorded time, the same resume after the deadline treats the call as rejected.
    const late = await play(recording().runner, true, deadline + 3_600_000);
    expect(late.newItems.join('')).toContain('expired');
  });

  it('a streamed run replays the same events', async () => {
    const build = (live: Live) => {
      const t = tools(live, []);
      return new Agent({
        name: 'Streamer',
        model: model(live, [[functionCall('fast', { q: 'x' }, { callId: 's1' })], [assistantMessage('streamed answer')]]),
        tools: [t.fast],
      });
    };
    const play = async (runner: StepRunner, live: Live) => {
      const result = await new Runner({ stepRunner: runner }).run(build(live), 'stream it', { stream: true });
      const events: RunStreamEvent[] = [];
      for await (const event of result) events.push(event);
      await result.completed;
      return { events: events.map((event) => JSON.stringify(event)), output: result.finalOutput, state: result.state.toString() };
    };
    const { runner, tape } = recording();
    const first = await play(runner, true);
    expect(first.output).toBe('streamed answer');
    expect(first.events.some((event) => event.includes('output_text_delta'))).toBe(true);
    const replay = replaying(tape);
    expect(await play(replay.runner, false)).toEqual(first);
  });

  it('runEffect takes the step runner from a layer', async () => {
    const { runner, tape } = recording();
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('hi')]]) });
    const result = await Effect.runPromise(new Runner().runEffect(agent, 'hello').pipe(Effect.provide(stepRunnerLayer(runner))));
    expect(result.finalOutput).toBe('hi');
    expect(tape.starts).toEqual(['id:run', 't1:model']);
  });
});
