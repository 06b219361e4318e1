import { Effect } from 'effect';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelError } from '@baton/testing';
import * as errors from '@baton/types';
import { Agent, ExternalFailure, Runner, tool, type InputGuardrailTripwireTriggered, type MaxTurnsExceededError } from '../src/index.js';

// runEffect fails with the public error classes, each with its `_tag`, so Effect programs narrow
// them with catchTag; what a model or user code threw arrives as ExternalFailure's cause.

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

  it('a model failure arrives as ExternalFailure with the original error', async () => {
    const boom = new Error('provider down');
    const model = new ScriptedModel([modelError(boom)]);
    const program = new Runner().runEffect(new Agent({ name: 'A', model }), 'go').pipe(
      Effect.map(() => undefined as unknown),
      Effect.catchTag('ExternalFailure', (failure) => Effect.succeed(failure.cause)),
    );
    await expect(Effect.runPromise(program as Effect.Effect<unknown, unknown>)).resolves.toBe(boom);
    expect(new ExternalFailure({ cause: boom })._tag).toBe('ExternalFailure');
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
