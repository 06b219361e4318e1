import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, InputGuardrailTripwireTriggered, UserError, run } from '@baton/core';
import { maxLengthCheck } from '../src/index.js';
import { rejectionOf } from './helpers.js';

const inspect = (text: string, max: number) => maxLengthCheck(max).inspect({ source: 'input', value: text, text });

describe('maxLengthCheck', () => {
  it.each([
    ['exactly the limit', 'hello', 5, false],
    ['one over', 'hello!', 5, true],
    ['code points, not UTF-16 units', '😀😀😀😀😀', 5, false],
    ['empty', '', 1, false],
  ])('%s', async (_, text, max, tripped) => {
    const verdict = await inspect(text, max);
    expect(verdict.tripped).toBe(tripped);
    expect(verdict.info).toEqual({ length: [...text].length, maxChars: max });
  });

  it('truncates as its redaction (for a tool output guardrail)', async () => {
    expect((await inspect('😀😀😀abc', 4)).redacted).toBe('😀😀😀a');
  });

  it('as an input guardrail, bounds the text of the whole input and blocks before the model', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const agent = new Agent({ name: 'A', model, inputGuardrails: [maxLengthCheck({ maxChars: 10 }).inputGuardrail()] });
    const error = await rejectionOf(run(agent, [{ role: 'user', content: 'twelve chars' }]));
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.message).toBe('Input guardrail triggered: {"length":12,"maxChars":10}');
    expect(error.result.guardrail.name).toBe('max_length');
    expect(model.calls).toHaveLength(0);
  });

  it('tells the model its default message, naming the limit (or the one given)', () => {
    expect(maxLengthCheck(280).rejectMessage).toBe('The input is too long (at most 280 characters).');
    expect(maxLengthCheck({ maxChars: 280, rejectMessage: 'Too long.' }).rejectMessage).toBe('Too long.');
    expect(maxLengthCheck(280).name).toBe('max_length');
  });

  it('rejects a bad limit with a UserError', () => {
    expect(() => maxLengthCheck(0)).toThrow(UserError);
    expect(() => maxLengthCheck({ maxChars: 2.5 })).toThrow(/`maxChars` must be a positive integer/);
  });

  it('options that are not a number or an object (from untyped JavaScript) are the same UserError, not a TypeError', () => {
    for (const bad of [null, undefined, '10', true]) {
      expect(() => maxLengthCheck(bad as never)).toThrow(UserError);
      expect(() => maxLengthCheck(bad as never)).toThrow('maxLengthCheck: `maxChars` must be a positive integer.');
    }
  });
});
