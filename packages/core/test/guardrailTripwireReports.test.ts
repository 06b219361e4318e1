// The guardrails README: an agent's input and output guardrails run as one batch; every guardrail
// of the batch finishes and is recorded. A guardrail that throws, returns something that is not a
// verdict, or outlasts its `timeoutMs` fails the run with a GuardrailExecutionError naming it, and
// wins over a sibling's trip (as on the reference); else the first trip (in list order) ends the
// run with a tripwire error naming what the guardrail reported. The messages follow the reference's
// (`Input guardrail triggered: <outputInfo as JSON>`).
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import {
  Agent,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
  run,
  type InputGuardrail,
  type OutputGuardrail,
} from '../src/index.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function failureOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the run to fail, but it succeeded');
}

const answering = () => new ScriptedModel([[assistantMessage('the answer')]]);
const input = (name: string, verdict: () => unknown, extra: Partial<InputGuardrail> = {}): InputGuardrail => ({
  name,
  execute: async () => verdict() as never,
  ...extra,
});
const output = (name: string, verdict: () => unknown, extra: Partial<OutputGuardrail> = {}): OutputGuardrail => ({
  name,
  execute: async () => verdict() as never,
  ...extra,
});

describe('input guardrails that pass', () => {
  it('are each recorded with their name, type and verdict, in list order', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [input('first', () => ({ tripwireTriggered: false, outputInfo: 1 })), input('second', () => ({ tripwireTriggered: false, outputInfo: 2 }))],
    });
    const result = await run(agent, 'hi');
    expect(result.finalOutput).toBe('the answer');
    expect(result.inputGuardrailResults).toEqual([
      { guardrail: { type: 'input', name: 'first' }, output: { tripwireTriggered: false, outputInfo: 1 } },
      { guardrail: { type: 'input', name: 'second' }, output: { tripwireTriggered: false, outputInfo: 2 } },
    ]);
  });
});

describe('an input guardrail that trips', () => {
  it('ends the run with InputGuardrailTripwireTriggered carrying its outputInfo as JSON', async () => {
    const agent = new Agent({ name: 'A', model: answering(), inputGuardrails: [input('tripper', () => ({ tripwireTriggered: true, outputInfo: { why: 'rude' } }))] });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.message).toBe('Input guardrail triggered: {"why":"rude"}');
    expect(error.result).toEqual({ guardrail: { type: 'input', name: 'tripper' }, output: { tripwireTriggered: true, outputInfo: { why: 'rude' } } });
  });

  it('without outputInfo the message says null', async () => {
    const agent = new Agent({ name: 'A', model: answering(), inputGuardrails: [input('bare', () => ({ tripwireTriggered: true }))] });
    const error = await failureOf(run(agent, 'hi'));
    expect(error.message).toBe('Input guardrail triggered: null');
  });

  it('when two trip, the first in list order is the error, and both are recorded', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [
        { name: 'slow_trip', execute: async () => (await sleep(40), { tripwireTriggered: true, outputInfo: 'slow' }) },
        input('fast_trip', () => ({ tripwireTriggered: true, outputInfo: 'fast' })),
      ],
    });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.result.guardrail.name).toBe('slow_trip');
    expect(error.state.inputGuardrailResults.map((r: any) => r.guardrail.name).sort()).toEqual(['fast_trip', 'slow_trip']);
  });

  it('a trip before a guardrail that throws: the thrown error wins, and the trip is recorded', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [
        input('trips', () => ({ tripwireTriggered: true, outputInfo: 'first' })),
        input('throws', () => {
          throw new Error('second');
        }),
      ],
    });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toBe('Input guardrail "throws" failed to complete: second');
    expect(error.state.inputGuardrailResults).toEqual([{ guardrail: { type: 'input', name: 'trips' }, output: { tripwireTriggered: true, outputInfo: 'first' } }]);
  });

  it('a guardrail that throws its own InputGuardrailTripwireTriggered has that very error surface', async () => {
    const own = new InputGuardrailTripwireTriggered('mine', { guardrail: { type: 'input', name: 'own' }, output: { tripwireTriggered: true, outputInfo: 'x' } });
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [
        input('own', () => {
          throw own;
        }),
      ],
    });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBe(own);
    expect(error.message).toBe('mine');
  });

  it('of two guardrails that throw, the first in list order is the error', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [
        { name: 'slow_throw', execute: async () => (await sleep(40), Promise.reject(new Error('first'))) },
        input('fast_throw', () => {
          throw new Error('second');
        }),
      ],
    });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toContain('Input guardrail "slow_throw" failed to complete: first');
  });

  it('a passing guardrail whose outputInfo JSON cannot carry lets the run go on', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const agent = new Agent({ name: 'A', model: answering(), inputGuardrails: [input('passes', () => ({ tripwireTriggered: false, outputInfo: circular }))] });
    const result = await run(agent, 'hi');
    expect(result.finalOutput).toBe('the answer');
    expect(result.inputGuardrailResults[0]!.output.outputInfo).toBe(circular);
  });

  it('a trip whose outputInfo JSON cannot carry fails the run with GuardrailExecutionError naming the guardrail', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const agent = new Agent({ name: 'A', model: answering(), inputGuardrails: [input('circular', () => ({ tripwireTriggered: true, outputInfo: circular }))] });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toMatch(/^Input guardrail "circular" failed to complete: Converting circular structure to JSON/);
  });

  it('a passing guardrail before a tripping one does not hide the trip', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [input('passes', () => ({ tripwireTriggered: false })), input('trips', () => ({ tripwireTriggered: true, outputInfo: 'no' }))],
    });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.result.guardrail.name).toBe('trips');
  });
});

describe('an input guardrail that cannot give a verdict', () => {
  it('one that throws fails the run with GuardrailExecutionError naming it and the error', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [
        input('broken', () => {
          throw new Error('moderation service down');
        }),
      ],
    });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toContain('Input guardrail "broken" failed to complete');
    expect(error.message).toContain('moderation service down');
  });

  it('one that throws something not an Error fails the run with its text, the cause an Error', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [
        input('stringly', () => {
          throw 'quota exceeded';
        }),
      ],
    });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toContain('Input guardrail "stringly" failed to complete: quota exceeded');
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'yes'],
    ['a verdict without a boolean tripwireTriggered', { tripwireTriggered: 'true' }],
  ])('one that returns %s fails the run saying what a verdict is', async (_label, verdict) => {
    const agent = new Agent({ name: 'A', model: answering(), inputGuardrails: [input('odd', () => verdict)] });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toContain('Input guardrail "odd" failed to complete');
    expect(error.message).toContain('it must return { tripwireTriggered: boolean, outputInfo? }');
  });

  it('one whose tripwireTriggered getter throws fails the run with that error', async () => {
    const verdict = {
      get tripwireTriggered(): boolean {
        throw new Error('verdict unreadable');
      },
    };
    const agent = new Agent({ name: 'A', model: answering(), inputGuardrails: [input('getter', () => verdict)] });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toContain('Input guardrail "getter" failed to complete: verdict unreadable');
  });

  it('one that outlasts its timeoutMs fails the run saying so, without waiting for it', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [{ name: 'slow', timeoutMs: 50, execute: async () => (await sleep(5_000), { tripwireTriggered: false }) }],
    });
    const started = Date.now();
    const error = await failureOf(run(agent, 'hi'));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toContain('Input guardrail "slow" failed to complete: timed out after 50ms');
  });

  it('a guardrail within its timeoutMs passes as usual', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      inputGuardrails: [{ name: 'quick', timeoutMs: 2_000, execute: async () => (await sleep(5), { tripwireTriggered: false }) }],
    });
    expect((await run(agent, 'hi')).finalOutput).toBe('the answer');
  });
});

describe('output guardrails', () => {
  it('that pass are recorded with the agent output they saw', async () => {
    const agent = new Agent({ name: 'A', model: answering(), outputGuardrails: [output('checks', () => ({ tripwireTriggered: false, outputInfo: 'ok' }))] });
    const result = await run(agent, 'hi');
    expect(result.finalOutput).toBe('the answer');
    expect(result.outputGuardrailResults).toHaveLength(1);
    expect(result.outputGuardrailResults[0]).toMatchObject({
      guardrail: { type: 'output', name: 'checks' },
      agentOutput: 'the answer',
      output: { tripwireTriggered: false, outputInfo: 'ok' },
    });
    expect(result.outputGuardrailResults[0]!.agent.name).toBe('A');
  });

  it('see the response that gave the answer and the run’s output items in their details', async () => {
    const seen: Array<Parameters<OutputGuardrail['execute']>[0]> = [];
    const agent = new Agent({ name: 'A', model: answering(), outputGuardrails: [{ name: 'looks', execute: async (args) => (seen.push(args), { tripwireTriggered: false }) }] });
    const result = await run(agent, 'hi');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.details?.modelResponse).toBe(result.rawResponses.at(-1));
    expect(seen[0]!.details?.output).toEqual([expect.objectContaining({ type: 'message', role: 'assistant' })]);
  });

  it('one that trips ends the run with OutputGuardrailTripwireTriggered carrying its outputInfo as JSON', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      outputGuardrails: [output('fine', () => ({ tripwireTriggered: false })), output('leak', () => ({ tripwireTriggered: true, outputInfo: ['secret'] }))],
    });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(error.message).toBe('Output guardrail triggered: ["secret"]');
    expect(error.result).toMatchObject({ guardrail: { type: 'output', name: 'leak' }, agentOutput: 'the answer' });
    expect(error.state.outputGuardrailResults.map((r: any) => r.guardrail.name)).toEqual(['fine', 'leak']);
  });

  it('one that throws fails the run with GuardrailExecutionError naming it as an output guardrail', async () => {
    const agent = new Agent({
      name: 'A',
      model: answering(),
      outputGuardrails: [
        output('crashes', () => {
          throw new Error('checker crashed');
        }),
      ],
    });
    const error = await failureOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toContain('Output guardrail "crashes" failed to complete');
    expect(error.message).toContain('checker crashed');
  });
});
