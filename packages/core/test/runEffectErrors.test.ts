import * as Cause from 'effect/Cause';
import * as Effect from 'effect/Effect';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelError } from '@baton/testing';
import * as errors from '@baton/types';
import { Agent, Runner, tool, type RunResult, type InputGuardrailTripwireTriggered, type MaxTurnsExceededError } from '../src/index.js';

// runEffect fails with the public error classes, each with its `_tag`, so Effect programs narrow
// them with catchTag; what a model or user code threw (not an AgentsError) is a defect carrying it.

const loop = tool({ name: 'again', description: 'again', parameters: z.object({}), execute: () => 'more' });

describe('runEffect errors for Effect programs', () => {
  it('catchTag narrows MaxTurnsExceededError', async () => {
    const model = new ScriptedModel([[functionCall('again', {})], [functionCall('again', {})]]);
    const program = new Runner().runEffect(new Agent({ name: 'A', model, tools: [loop] }), 'go', { maxTurns: 1 }).pipe(
      Effect.map(() => 'finished'),
      Effect.catchTag('MaxTurnsExceededError', (error) => {
        expectTypeOf(error).toEqualTypeOf<MaxTurnsExceededError>();
        return Effect.succeed(`stopped: ${error.message}`);
      }),
    );
    await expect(Effect.runPromise(program as Effect.Effect<string, unknown>)).resolves.toBe('stopped: Max turns (1) exceeded');
  });

  it('catchTag narrows a tripped input guardrail, with its result', async () => {
    const model = new ScriptedModel([[assistantMessage('never')]]);
    const guard = { name: 'no_secrets', execute: async () => ({ tripwireTriggered: true, outputInfo: 'secret found' }) };
    const program = new Runner().runEffect(new Agent({ name: 'A', model, inputGuardrails: [guard] }), 'my password is x').pipe(
      Effect.map(() => 'passed'),
      Effect.catchTag('InputGuardrailTripwireTriggered', (error) => {
        expectTypeOf(error).toEqualTypeOf<InputGuardrailTripwireTriggered>();
        return Effect.succeed(error.result.guardrail.name);
      }),
    );
    await expect(Effect.runPromise(program as Effect.Effect<string, unknown>)).resolves.toBe('no_secrets');
  });

  it('what a model threw is a defect carrying the original error; the error type names only public errors', async () => {
    const boom = new Error('provider down');
    const model = new ScriptedModel([modelError(boom)]);
    const effect = new Runner().runEffect(new Agent({ name: 'A', model }), 'go');
    expectTypeOf(effect).toEqualTypeOf<Effect.Effect<RunResult<unknown, Agent<unknown, 'text'>>, errors.RunError | errors.ModelProviderError>>();
    const program = effect.pipe(
      Effect.map(() => undefined as unknown),
      Effect.catchDefect((defect) => Effect.succeed(defect)),
    );
    await expect(Effect.runPromise(program)).resolves.toBe(boom);
  });

  it("a provider's own error stays in the error channel, narrowed by its tag without widening the others", async () => {
    class AcmeProviderError extends errors.AgentsError {
      override readonly _tag = 'AcmeProviderError' as const;
    }
    const model = new ScriptedModel([modelError(new AcmeProviderError('rate limited'))]);
    const program = new Runner().runEffect(new Agent({ name: 'A', model }), 'go').pipe(
      Effect.map(() => 'answered'),
      Effect.catchTag('AcmeProviderError', (error) => {
        expectTypeOf(error).toEqualTypeOf<errors.ModelProviderError>();
        return Effect.succeed(`provider: ${error.message}`);
      }),
      Effect.catchTag('MaxTurnsExceededError', (error) => {
        expectTypeOf(error).toEqualTypeOf<MaxTurnsExceededError>();
        return Effect.succeed('max turns');
      }),
    );
    await expect(Effect.runPromise(program as Effect.Effect<string, unknown>)).resolves.toBe('provider: rate limited');
  });

  it('an AgentsError of your own (not a run or provider error) is a defect too', async () => {
    class OwnError extends errors.AgentsError {}
    const own = new OwnError('mine');
    const model = new ScriptedModel([modelError(own)]);
    const exit = await Effect.runPromiseExit(new Runner().runEffect(new Agent({ name: 'A', model }), 'go'));
    expect(exit._tag).toBe('Failure');
    if (exit._tag === 'Failure') expect(Cause.squash(exit.cause)).toBe(own);
    expect(exit._tag === 'Failure' && Cause.hasDies(exit.cause)).toBe(true);
  });

  it('every Baton error class carries its class name as _tag', () => {
    const classes = Object.entries(errors).filter(
      ([name, value]) => typeof value === 'function' && value.prototype instanceof errors.AgentsError && name !== 'AgentsError',
    ) as Array<[string, new (...args: any[]) => errors.AgentsError]>;
    expect(classes.length).toBeGreaterThan(10);
    for (const [name, ErrorClass] of classes) {
      const error = name === 'ToolTimeoutError' || name === 'ModelTimeoutError' ? new ErrorClass({ toolName: 't', timeoutMs: 1 }) : name === 'RunStateError' ? new ErrorClass('invalid_state', 'm') : new ErrorClass('m');
      expect(error._tag, name).toBe(name);
    }
  });
});
