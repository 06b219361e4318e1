import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelError } from '@baton/testing';
import {
  Agent,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  Runner,
  RunState,
  defaultHandoffToolName,
  run,
  tool,
} from '@baton/core';
import { defineInputGuardrail } from '../src/index.js';
import { deferred, drain, rejectionOf, sleep, slowModelStep } from './helpers.js';

const pass = (name: string, options: { runInParallel?: boolean; delayMs?: number; log?: string[] } = {}) =>
  defineInputGuardrail({
    name,
    runInParallel: options.runInParallel ?? true,
    execute: async () => {
      options.log?.push(`start ${name}`);
      if (options.delayMs) await sleep(options.delayMs);
      options.log?.push(`end ${name}`);
      return { tripwireTriggered: false, outputInfo: { name } };
    },
  });

const trip = (name: string, outputInfo: unknown, options: { runInParallel?: boolean; delayMs?: number } = {}) =>
  defineInputGuardrail({
    name,
    runInParallel: options.runInParallel ?? true,
    execute: async () => {
      if (options.delayMs) await sleep(options.delayMs);
      return { tripwireTriggered: true, outputInfo };
    },
  });

describe('blocking input guardrails (runInParallel: false)', () => {
  it('a tripwire never calls the model; the error carries the result and the state', async () => {
    const model = new ScriptedModel([[assistantMessage('should not happen')]]);
    const agent = new Agent({ name: 'Support', model, inputGuardrails: [trip('math', { isMathHomework: true }, { runInParallel: false })] });

    const error = await rejectionOf(run(agent, 'solve 2x + 3 = 11'));

    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.name).toBe('InputGuardrailTripwireTriggered');
    expect(error.message).toBe('Input guardrail triggered: {"isMathHomework":true}');
    expect(error.result).toEqual({ guardrail: { type: 'input', name: 'math' }, output: { tripwireTriggered: true, outputInfo: { isMathHomework: true } } });
    expect(model.calls).toHaveLength(0);
    expect(error.state).toBeInstanceOf(RunState);
    expect(error.state.inputGuardrailResults).toEqual([error.result]);
    expect(error.state.usage.requests).toBe(0);
  });

  it('the model is called only after every blocking guardrail has finished', async () => {
    const release = deferred();
    const model = new ScriptedModel([[assistantMessage('hello')]]);
    const slow = defineInputGuardrail({
      name: 'slow',
      runInParallel: false,
      execute: async () => (await release.promise, { tripwireTriggered: false }),
    });
    const agent = new Agent({ name: 'A', model, inputGuardrails: [slow] });
    const pending = run(agent, 'hi');
    await sleep(30);
    expect(model.calls).toHaveLength(0);
    release.resolve();
    const result = await pending;
    expect(result.finalOutput).toBe('hello');
    expect(model.calls).toHaveLength(1);
    expect(result.inputGuardrailResults).toEqual([{ guardrail: { type: 'input', name: 'slow' }, output: { tripwireTriggered: false } }]);
  });

  it('runner-level guardrails run before the agent\'s, and results are recorded in that order', async () => {
    const log: string[] = [];
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const agent = new Agent({ name: 'A', model, inputGuardrails: [pass('agent_level', { runInParallel: false, log })] });
    const runner = new Runner({ inputGuardrails: [pass('runner_level', { runInParallel: false, log })] });
    const result = await runner.run(agent, 'hi');
    expect(log[0]).toBe('start runner_level');
    expect(result.inputGuardrailResults.map((r) => r.guardrail.name)).toEqual(['runner_level', 'agent_level']);
  });
});

describe('parallel input guardrails (the default)', () => {
  it('a tripwire while the model is in flight aborts the request, and the run settles at once', async () => {
    const slow = slowModelStep(1_000, [assistantMessage('too late')]);
    const model = new ScriptedModel([slow.step]);
    const guardrail = defineInputGuardrail({
      name: 'late_trip',
      execute: async () => {
        await slow.started.promise;
        await sleep(20);
        return { tripwireTriggered: true, outputInfo: { reason: 'off-topic' } };
      },
    });
    const agent = new Agent({ name: 'A', model, inputGuardrails: [guardrail] });

    const startedAt = Date.now();
    const error = await rejectionOf(run(agent, 'hi'));
    const elapsed = Date.now() - startedAt;

    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.message).toBe('Input guardrail triggered: {"reason":"off-topic"}');
    expect(elapsed).toBeLessThan(500);
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.request.signal?.aborted).toBe(true);
    expect(await slow.outcome.promise).toBe('aborted');
    expect(error.state.inputGuardrailResults).toEqual([error.result]);
    // The turn was admitted (it counts) even though its model call was abandoned.
    expect(error.state.currentTurn).toBe(1);
  });

  it('a guardrail that throws while the model is in flight aborts the request too (GuardrailExecutionError)', async () => {
    const slow = slowModelStep(1_000, [assistantMessage('too late')]);
    const model = new ScriptedModel([slow.step]);
    const boom = new Error('moderation service down');
    const guardrail = defineInputGuardrail({
      name: 'moderation',
      execute: async () => {
        await slow.started.promise;
        throw boom;
      },
    });
    const agent = new Agent({ name: 'A', model, inputGuardrails: [guardrail] });
    const startedAt = Date.now();
    const error = await rejectionOf(run(agent, 'hi'));
    expect(Date.now() - startedAt).toBeLessThan(500);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toMatch(/^Input guardrail "moderation" failed to complete: moderation service down$/);
    expect(error.error).toBe(boom);
    expect(error.state).toBeInstanceOf(RunState);
    expect(await slow.outcome.promise).toBe('aborted');
  });

  it('when the model answers first with a tool call, the tool does not run if the guardrail then trips', async () => {
    const calls: string[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks something up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => (calls.push(q), 'found'),
    });
    const model = new ScriptedModel([[functionCall('lookup', { q: 'secret plans' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const guardrail = trip('slow_trip', { blocked: true }, { delayMs: 60 });
    const agent = new Agent({ name: 'A', model, tools: [lookup], inputGuardrails: [guardrail] });

    const error = await rejectionOf(run(agent, 'look it up'));

    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(model.calls).toHaveLength(1);
    expect(calls).toEqual([]);
    expect(error.state.generatedItems.filter((item: { type: string }) => item.type === 'tool_call_output_item')).toEqual([]);
  });

  it('when the model answers first with a handoff, the handoff does not happen if the guardrail then trips', async () => {
    const specialistModel = new ScriptedModel([[assistantMessage('specialist here')]]);
    const specialist = new Agent({ name: 'Specialist', model: specialistModel });
    const model = new ScriptedModel([[functionCall(defaultHandoffToolName(specialist), {})]]);
    const agent = new Agent({ name: 'Triage', model, handoffs: [specialist], inputGuardrails: [trip('slow_trip', null, { delayMs: 60 })] });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.message).toBe('Input guardrail triggered: null');
    expect(specialistModel.calls).toHaveLength(0);
    expect(error.state.currentAgent).toBe(agent);
  });

  it('a passing guardrail holds the model answer until it has finished, then the run goes on', async () => {
    const log: string[] = [];
    const ran: string[] = [];
    const echo = tool({ name: 'echo', description: '', parameters: z.object({ s: z.string() }), execute: ({ s }) => (ran.push(`${log.length}`), s) });
    const model = new ScriptedModel([[functionCall('echo', { s: 'x' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [echo], inputGuardrails: [pass('slow_pass', { delayMs: 50, log })] });
    const result = await run(agent, 'hi');
    expect(result.finalOutput).toBe('done');
    // The tool ran after the guardrail logged its end (two log lines).
    expect(ran).toEqual(['2']);
  });

  it('drains sibling guardrails and records every result before the failure surfaces: a thrown error wins over a trip', async () => {
    const finished: string[] = [];
    const slowPass = defineInputGuardrail({
      name: 'slow_pass',
      execute: async () => (await sleep(400), finished.push('slow_pass'), { tripwireTriggered: false, outputInfo: 'fine' }),
    });
    const fastTrip = defineInputGuardrail({
      name: 'fast_trip',
      execute: async () => (await sleep(5), finished.push('fast_trip'), { tripwireTriggered: true, outputInfo: 'tripped' }),
    });
    const thrower = defineInputGuardrail({
      name: 'thrower',
      execute: async () => {
        await sleep(150);
        finished.push('thrower');
        throw new Error('boom');
      },
    });
    // Far apart, so a loaded machine starting the guardrails a little apart keeps their order.
    const slow = slowModelStep(2_000, [assistantMessage('never')]);
    const model = new ScriptedModel([slow.step]);
    const agent = new Agent({ name: 'A', model, inputGuardrails: [slowPass, fastTrip, thrower] });

    const error = await rejectionOf(run(agent, 'hi'));

    expect(finished).toEqual(['fast_trip', 'thrower', 'slow_pass']);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toBe('Input guardrail "thrower" failed to complete: boom');
    expect(error.state.inputGuardrailResults).toEqual([
      { guardrail: { type: 'input', name: 'slow_pass' }, output: { tripwireTriggered: false, outputInfo: 'fine' } },
      { guardrail: { type: 'input', name: 'fast_trip' }, output: { tripwireTriggered: true, outputInfo: 'tripped' } },
    ]);
    // The model was aborted as soon as the first guardrail tripped, not when the batch was drained.
    expect(await slow.outcome.promise).toBe('aborted');
  });

  it('a guardrail error wins over a model error', async () => {
    const model = new ScriptedModel([modelError(new Error('rate limited'))]);
    const agent = new Agent({ name: 'A', model, inputGuardrails: [trip('late', { why: 'policy' }, { delayMs: 40 })] });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(model.calls).toHaveLength(1);

    const failing = new ScriptedModel([modelError(new Error('rate limited'))]);
    const passing = new Agent({ name: 'B', model: failing, inputGuardrails: [pass('late', { delayMs: 20 })] });
    const modelFailure = await rejectionOf(run(passing, 'hi'));
    expect(modelFailure.message).toBe('rate limited');
  });

  it('a guardrail tripwire wins over a parse error of structured output', async () => {
    const model = new ScriptedModel([[assistantMessage('this is not JSON')]]);
    const agent = new Agent({ name: 'A', model, outputType: z.object({ answer: z.string() }), inputGuardrails: [trip('late', 1, { delayMs: 40 })] });
    expect(await rejectionOf(run(agent, 'hi'))).toBeInstanceOf(InputGuardrailTripwireTriggered);
  });

  it('run only for the first turn of the starting agent', async () => {
    let calls = 0;
    const counted = defineInputGuardrail({ name: 'counted', execute: () => (calls++, { tripwireTriggered: false }) });
    const echo = tool({ name: 'echo', description: '', parameters: z.object({}), execute: () => 'x' });
    const model = new ScriptedModel([[functionCall('echo', {})], [functionCall('echo', {})], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [echo], inputGuardrails: [counted] });
    const result = await run(agent, 'hi');
    expect(result.finalOutput).toBe('done');
    expect(model.calls).toHaveLength(3);
    expect(calls).toBe(1);
    expect(result.inputGuardrailResults).toHaveLength(1);
  });

  it('are not run again when an interrupted run resumes, nor for an agent handed off to', async () => {
    let calls = 0;
    const counted = defineInputGuardrail({ name: 'counted', execute: () => (calls++, { tripwireTriggered: false }) });
    const pay = tool({ name: 'pay', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'paid' });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[functionCall('pay', {})], [assistantMessage('paid it')]]), tools: [pay], inputGuardrails: [counted] });
    const paused = await run(agent, 'pay');
    expect(calls).toBe(1);
    paused.state.approve(paused.interruptions[0]!);
    expect((await run(agent, paused.state)).finalOutput).toBe('paid it');
    expect(calls).toBe(1);

    const specialist = new Agent({ name: 'Specialist', model: new ScriptedModel([[assistantMessage('handled')]]), inputGuardrails: [trip('never_runs', 'x')] });
    const triage = new Agent({ name: 'Triage', model: new ScriptedModel([[functionCall(defaultHandoffToolName(specialist), {})]]), handoffs: [specialist] });
    const result = await run(triage, 'hi');
    expect(result.finalOutput).toBe('handled');
    expect(result.inputGuardrailResults).toEqual([]);
  });

  it('in a streamed run, no item of a model answer is emitted before the parallel guardrails pass', async () => {
    const model = new ScriptedModel([[assistantMessage('streamed answer')]]);
    const agent = new Agent({ name: 'A', model, inputGuardrails: [trip('slow_trip', 'late', { delayMs: 40 })] });
    const result = await run(agent, 'hi', { stream: true });
    const { events, error } = await drain(result);
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(await rejectionOf(result.completed)).toBe(error);
    expect(events.flatMap((event) => (event.type === 'run_item_stream_event' ? [event.name] : []))).toEqual([]);
  });

  it('receive the agent, the run input and the context', async () => {
    let seen: unknown;
    const guardrail = defineInputGuardrail<{ userId: string }>({
      name: 'inspect',
      execute: ({ agent, input, context }) => ((seen = { agent: agent.name, input, userId: context.context.userId }), { tripwireTriggered: false }),
    });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('ok')]]), inputGuardrails: [guardrail] });
    await run(agent, 'hello there', { context: { userId: 'u1' } });
    expect(seen).toEqual({ agent: 'A', input: 'hello there', userId: 'u1' });
  });
});

describe('bad guardrails', () => {
  it.each([
    ['missing tripwireTriggered', { outputInfo: 'x' }],
    ['undefined', undefined],
    ['a string', 'yes'],
    ['a non-boolean tripwireTriggered', { tripwireTriggered: 'true' }],
  ])('a guardrail returning %s fails with a GuardrailExecutionError naming it', async (_, value) => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const bad = defineInputGuardrail({ name: 'bad_guardrail', runInParallel: false, execute: () => value as never });
    const agent = new Agent({ name: 'A', model, inputGuardrails: [bad] });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toContain('"bad_guardrail"');
    expect(error.message).toContain('tripwireTriggered');
    expect(error.error).toBeInstanceOf(TypeError);
    expect(model.calls).toHaveLength(0);
  });

  it('timeoutMs bounds a blocking guardrail that hangs', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const hanging = defineInputGuardrail({ name: 'hangs', runInParallel: false, timeoutMs: 40, execute: () => new Promise<never>(() => undefined) });
    const agent = new Agent({ name: 'A', model, inputGuardrails: [hanging] });
    const startedAt = Date.now();
    const error = await rejectionOf(run(agent, 'hi'));
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toMatch(/"hangs".*timed out after 40ms/);
    expect(model.calls).toHaveLength(0);
  });

  it('timeoutMs bounds a parallel guardrail that hangs, and the model request is aborted', async () => {
    const slow = slowModelStep(1_000, [assistantMessage('never')]);
    const model = new ScriptedModel([slow.step]);
    const hanging = defineInputGuardrail({ name: 'hangs', timeoutMs: 40, execute: () => new Promise<never>(() => undefined) });
    const agent = new Agent({ name: 'A', model, inputGuardrails: [hanging] });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(await slow.outcome.promise).toBe('aborted');
  });
});

describe('Effect guardrail functions', () => {
  it('an Effect program is run by the loop and its verdict used', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const effectful = defineInputGuardrail({
      name: 'effectful',
      runInParallel: false,
      execute: ({ input }) =>
        Effect.gen(function* () {
          yield* Effect.sleep('5 millis');
          return { tripwireTriggered: String(input).includes('forbidden'), outputInfo: { checked: input } };
        }),
    });
    const agent = new Agent({ name: 'A', model, inputGuardrails: [effectful] });
    const error = await rejectionOf(run(agent, 'forbidden words'));
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.message).toBe('Input guardrail triggered: {"checked":"forbidden words"}');
    expect(model.calls).toHaveLength(0);
    expect((await run(agent, 'fine words')).finalOutput).toBe('ok');
  });

  it('an Effect failure becomes a GuardrailExecutionError wrapping the original error', async () => {
    const boom = new Error('effect boom');
    const failing = defineInputGuardrail({ name: 'fails', runInParallel: false, execute: () => Effect.fail(boom) });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([]), inputGuardrails: [failing] });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toBe('Input guardrail "fails" failed to complete: effect boom');
    expect(error.error).toBe(boom);
  });

  it('an Effect guardrail is interrupted when the run is cancelled', async () => {
    let interrupted = false;
    const forever = defineInputGuardrail({
      name: 'forever',
      execute: () => Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => (interrupted = true)))),
    });
    const slow = slowModelStep(1_000, [assistantMessage('never')]);
    const agent = new Agent({ name: 'A', model: new ScriptedModel([slow.step]), inputGuardrails: [forever] });
    const controller = new AbortController();
    const pending = run(agent, 'hi', { signal: controller.signal });
    await slow.started.promise;
    controller.abort();
    const error = await rejectionOf(pending);
    expect(error.name).toBe('AbortError');
    expect(interrupted).toBe(true);
    expect(await slow.outcome.promise).toBe('aborted');
  });
});
