import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as types from '../src/index.js';
import {
  AgentsError,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  InvalidToolInputError,
  InvalidToolOutputError,
  MaxTurnsExceededError,
  ModelTimeoutError,
  ModelBehaviorError,
  ModelRefusalError,
  ModelStreamIdleTimeoutError,
  OutputGuardrailTripwireTriggered,
  RunStateError,
  SystemError,
  ToolCallError,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  ToolTimeoutError,
  UserError,
  type InputGuardrailResult,
  type OutputGuardrailResult,
  type RunStateRef,
  type ToolInputGuardrailResult,
  type ToolOutputGuardrailResult,
} from '../src/index.js';

const state: RunStateRef = { currentTurn: 2, toString: () => '{"state":true}' };
const cause = new Error('inner failure');
const inputResult = { guardrail: { type: 'input', name: 'no_secrets' }, output: { tripwireTriggered: true, outputInfo: 'x' } } as unknown as InputGuardrailResult;
const outputResult = { guardrail: { type: 'output', name: 'tone' }, output: { tripwireTriggered: true } } as unknown as OutputGuardrailResult;
const toolInputResult = { guardrail: { type: 'tool_input', name: 'args' }, output: { behavior: { type: 'throwException' } } } as unknown as ToolInputGuardrailResult;
const toolOutputResult = { guardrail: { type: 'tool_output', name: 'pii' }, output: { behavior: { type: 'throwException' } } } as unknown as ToolOutputGuardrailResult;

interface ErrorCase {
  name: string;
  make: (withState: boolean) => AgentsError;
  message: string | RegExp;
  fields?: Record<string, unknown>;
  parent?: abstract new (...args: never[]) => Error;
}

const cases: ErrorCase[] = [
  { name: 'SystemError', make: (s) => new SystemError('sys', s ? state : undefined), message: 'sys' },
  { name: 'MaxTurnsExceededError', make: (s) => new MaxTurnsExceededError('Max turns (10) exceeded', s ? state : undefined), message: 'Max turns (10) exceeded' },
  { name: 'ModelBehaviorError', make: (s) => new ModelBehaviorError('bad model', s ? state : undefined), message: 'bad model' },
  {
    name: 'ModelRefusalError',
    make: (s) => new ModelRefusalError('I cannot do that', s ? state : undefined),
    message: /I cannot do that/,
    fields: { refusal: 'I cannot do that' },
  },
  {
    name: 'RunStateError',
    make: (s) =>
      new RunStateError('newer_version', 'Run state schema version 2 is newer', { foundVersion: '2', supportedVersion: '1', ...(s ? { state } : {}) }),
    message: 'Run state schema version 2 is newer',
    fields: { reason: 'newer_version', foundVersion: '2', supportedVersion: '1' },
    parent: UserError,
  },
  { name: 'UserError', make: (s) => new UserError('tools: duplicate name', s ? state : undefined), message: 'tools: duplicate name' },
  {
    name: 'InvalidToolInputError',
    make: (s) => new InvalidToolInputError('bad args', s ? state : undefined, cause),
    message: 'bad args',
    fields: { originalError: cause },
    parent: ModelBehaviorError,
  },
  {
    name: 'InvalidToolOutputError',
    make: (s) => new InvalidToolOutputError('bad output', s ? state : undefined, cause, { x: 1 }),
    message: 'bad output',
    fields: { originalError: cause, toolOutput: { x: 1 } },
    parent: UserError,
  },
  {
    name: 'ModelStreamIdleTimeoutError',
    make: (s) => new ModelStreamIdleTimeoutError('quiet for 100 ms', 100, s ? state : undefined),
    message: 'quiet for 100 ms',
    fields: { idleTimeoutMs: 100 },
    parent: ModelBehaviorError,
  },
  {
    name: 'ModelTimeoutError',
    make: (s) => new ModelTimeoutError(s ? { timeoutMs: 50, cause, state } : { timeoutMs: 50, cause }),
    message: 'Model call timed out after 50ms.',
    fields: { timeoutMs: 50, code: 'ETIMEDOUT', cause },
  },
  {
    name: 'GuardrailExecutionError',
    make: (s) => new GuardrailExecutionError('guardrail threw', cause, s ? state : undefined),
    message: 'guardrail threw',
    fields: { error: cause },
  },
  { name: 'ToolCallError', make: (s) => new ToolCallError('tool failed', cause, s ? state : undefined), message: 'tool failed', fields: { error: cause } },
  {
    name: 'ToolTimeoutError',
    make: (s) => new ToolTimeoutError(s ? { toolName: 'slow', timeoutMs: 50, state } : { toolName: 'slow', timeoutMs: 50 }),
    message: /slow.*50ms/,
    fields: { toolName: 'slow', timeoutMs: 50 },
  },
  {
    name: 'InputGuardrailTripwireTriggered',
    make: (s) => new InputGuardrailTripwireTriggered('tripped', inputResult, s ? state : undefined),
    message: 'tripped',
    fields: { result: inputResult },
  },
  {
    name: 'OutputGuardrailTripwireTriggered',
    make: (s) => new OutputGuardrailTripwireTriggered('tripped', outputResult, s ? state : undefined),
    message: 'tripped',
    fields: { result: outputResult },
  },
  {
    name: 'ToolInputGuardrailTripwireTriggered',
    make: (s) => new ToolInputGuardrailTripwireTriggered('tripped', toolInputResult, s ? state : undefined),
    message: 'tripped',
    fields: { result: toolInputResult },
  },
  {
    name: 'ToolOutputGuardrailTripwireTriggered',
    make: (s) => new ToolOutputGuardrailTripwireTriggered('tripped', toolOutputResult, s ? state : undefined),
    message: 'tripped',
    fields: { result: toolOutputResult },
  },
];

describe('error classes', () => {
  it.each(cases)('$name: name, message, fields and state', ({ name, make, message, fields, parent }) => {
    const error = make(true);
    expect(error.name).toBe(name);
    expect(error.constructor.name).toBe(name);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(AgentsError);
    expect(error).toBeInstanceOf((types as unknown as Record<string, new () => Error>)[name]!);
    if (parent) expect(error).toBeInstanceOf(parent);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(error).toMatchObject(fields ?? {});
    expect(error.state).toBe(state);
    expect(String(error)).toMatch(new RegExp(`^${name}: `));
    expect(error.stack).toContain(name);
  });

  it.each(cases)('$name without a state leaves state undefined', ({ make }) => {
    const error = make(false);
    expect(error.state).toBeUndefined();
    expect(error.message).not.toBe('');
  });

  it('covers every exported error class', () => {
    const exported = Object.entries(types)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof AgentsError)
      .map(([key]) => key)
      .sort();
    expect(exported).toEqual(cases.map((c) => c.name).sort());
  });

  it('names a user subclass after the subclass', () => {
    class BudgetExceededError extends UserError {}
    const error = new BudgetExceededError('over budget');
    expect(error.name).toBe('BudgetExceededError');
    expect(error).toBeInstanceOf(UserError);
  });

  it.each([
    { format: 'ESM', load: async () => (await import(/* @vite-ignore */ new URL('../dist/index.js', import.meta.url).href)) as Record<string, unknown> },
    { format: 'CommonJS', load: async () => createRequire(import.meta.url)('../dist/index.cjs') as Record<string, unknown> },
  ])('keeps class names in the $format build', async ({ load }) => {
    const dist = await load();
    for (const { name } of cases) {
      const ErrorClass = dist[name] as new (...args: unknown[]) => Error;
      expect(typeof ErrorClass, name).toBe('function');
      const error = name === 'ToolTimeoutError' ? new ErrorClass({ toolName: 't', timeoutMs: 1 }) : new ErrorClass('m', cause);
      expect(error.name).toBe(name);
    }
  });
});
