import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
  ToolCallError,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  UserError,
  run,
  tool,
} from '@baton/core';
import {
  bannedTopicsCheck,
  defineCheck,
  piiCheck,
  secretsCheck,
  type CheckSubject,
  type ToolInputGuardrailDefinition,
  type ToolOutputGuardrailDefinition,
} from '../src/index.js';
import { FAKE } from './fixtures.js';
import { rejectionOf, resultText } from './helpers.js';

/** One tool call with `args`, returning `returns`; then a final message. */
function toolRun(
  args: Record<string, unknown>,
  returns: unknown,
  guardrails: { inputGuardrails?: ToolInputGuardrailDefinition[]; outputGuardrails?: ToolOutputGuardrailDefinition[] },
) {
  const invoked: unknown[] = [];
  const echo = tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), ...guardrails, execute: (input) => (invoked.push(input), returns) });
  const model = new ScriptedModel([[functionCall('echo', args, { callId: 'c1' })], [assistantMessage('done')]]);
  return { agent: new Agent({ name: 'A', model, tools: [echo] }), model, invoked };
}

describe('defineCheck', () => {
  it('hands each guardrail kind the right subject', async () => {
    const seen: CheckSubject[] = [];
    const spy = defineCheck({ name: 'spy', inspect: (subject) => (seen.push(subject), { tripped: false, info: null }) });
    const echo = tool({
      name: 'echo',
      description: '',
      parameters: z.object({ text: z.string() }),
      inputGuardrails: [spy.toolInputGuardrail()],
      outputGuardrails: [spy.toolOutputGuardrail()],
      execute: ({ text }) => ({ echoed: text }),
    });
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' })], [assistantMessage('{"ok":true}')]]);
    const agent = new Agent({ name: 'A', model, tools: [echo], outputType: z.object({ ok: z.boolean() }), inputGuardrails: [spy.inputGuardrail()], outputGuardrails: [spy.outputGuardrail()] });
    await run(agent, [
      { role: 'system', content: 'be nice' },
      { role: 'user', content: [{ type: 'input_text', text: 'first' }, { type: 'input_image', image: 'https://x/y.png' }, { type: 'input_text', text: 'second' }] },
    ]);
    expect(seen.map((s) => s.source)).toEqual(['input', 'tool_input', 'tool_output', 'output']);
    expect(seen[0]!.text).toBe('be nice\nfirst\nsecond');
    expect(seen[1]).toEqual({ source: 'tool_input', value: { text: 'hi' }, text: '{"text":"hi"}' });
    expect(seen[2]).toEqual({ source: 'tool_output', value: { echoed: 'hi' }, text: '{"echoed":"hi"}' });
    expect(seen[3]).toEqual({ source: 'output', value: { ok: true }, text: '{"ok":true}' });
  });

  it('as an input guardrail: blocking by default (the model is never called), parallel on request', async () => {
    const check = bannedTopicsCheck({ keywords: { politics: ['election'] } });
    expect(check.inputGuardrail()).toMatchObject({ name: 'banned_topics', runInParallel: false });
    expect(check.inputGuardrail({ runInParallel: true, name: 'topics', timeoutMs: 100 })).toMatchObject({ name: 'topics', runInParallel: true, timeoutMs: 100 });
    const model = new ScriptedModel([[assistantMessage('never')]]);
    const agent = new Agent({ name: 'A', model, inputGuardrails: [check.inputGuardrail()] });
    const error = await rejectionOf(run(agent, 'Who will win the election?'));
    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.message).toBe('Input guardrail triggered: {"topics":["politics"],"keywords":["election"]}');
    expect(model.calls).toHaveLength(0);
  });

  it('as an output guardrail: trips on the final output', async () => {
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('Reach me at 650-555-0101')]]), outputGuardrails: [piiCheck().outputGuardrail()] });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(error.result.output.outputInfo.detected).toEqual(['phone']);
  });

  it('as a tool input guardrail: rejectContent (default) with the check\'s message, or throwException', async () => {
    const secrets = secretsCheck();
    const rejecting = toolRun({ text: `use ${FAKE.openaiKey}` }, 'x', { inputGuardrails: [secrets.toolInputGuardrail()] });
    await run(rejecting.agent, 'go');
    expect(rejecting.invoked).toEqual([]);
    expect(resultText(rejecting.model.calls[1], 'c1')).toBe('Remove secrets before calling this tool.');

    const custom = toolRun({ text: `use ${FAKE.openaiKey}` }, 'x', { inputGuardrails: [secrets.toolInputGuardrail({ message: 'No keys, please.' })] });
    await run(custom.agent, 'go');
    expect(resultText(custom.model.calls[1], 'c1')).toBe('No keys, please.');

    const throwing = toolRun({ text: `use ${FAKE.openaiKey}` }, 'x', { inputGuardrails: [secrets.toolInputGuardrail({ behavior: 'throwException' })] });
    const error = await rejectionOf(run(throwing.agent, 'go'));
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error.error).toBeInstanceOf(ToolInputGuardrailTripwireTriggered);
    expect(error.error.result.output.outputInfo.detected).toEqual(['openai_api_key']);

    const clean = toolRun({ text: 'nothing secret' }, 'x', { inputGuardrails: [secrets.toolInputGuardrail()] });
    await run(clean.agent, 'go');
    expect(clean.invoked).toEqual([{ text: 'nothing secret' }]);
  });

  it('as a tool output guardrail: redact (default), rejectContent, or throwException', async () => {
    const pii = piiCheck();
    const output = { customer: 'Jane', email: 'jane@example.com' };
    const redacting = toolRun({ text: 'x' }, output, { outputGuardrails: [pii.toolOutputGuardrail()] });
    await run(redacting.agent, 'go');
    expect(resultText(redacting.model.calls[1], 'c1')).toBe('{"customer":"Jane","email":"[REDACTED:email]"}');

    const rejecting = toolRun({ text: 'x' }, output, { outputGuardrails: [pii.toolOutputGuardrail({ behavior: 'rejectContent', message: 'withheld' })] });
    await run(rejecting.agent, 'go');
    expect(resultText(rejecting.model.calls[1], 'c1')).toBe('withheld');

    const topics = bannedTopicsCheck(['Jane']);
    const noRedaction = toolRun({ text: 'x' }, output, { outputGuardrails: [topics.toolOutputGuardrail()] });
    await run(noRedaction.agent, 'go');
    expect(resultText(noRedaction.model.calls[1], 'c1')).toBe(topics.rejectMessage);

    const throwing = toolRun({ text: 'x' }, output, { outputGuardrails: [pii.toolOutputGuardrail({ behavior: 'throwException' })] });
    const error = await rejectionOf(run(throwing.agent, 'go'));
    expect(error.error).toBeInstanceOf(ToolOutputGuardrailTripwireTriggered);
  });

  it('a check without a rejectMessage tells the model which check blocked the call', async () => {
    const noSecrets = defineCheck({ name: 'no_digits', inspect: ({ text }) => ({ tripped: /\d/.test(text), info: null }) });
    expect(noSecrets.rejectMessage).toBe('Blocked by the "no_digits" check.');
    const blocked = toolRun({ text: 'call 42' }, 'x', { inputGuardrails: [noSecrets.toolInputGuardrail()] });
    await run(blocked.agent, 'go');
    expect(blocked.invoked).toEqual([]);
    expect(resultText(blocked.model.calls[1], 'c1')).toBe('Blocked by the "no_digits" check.');
  });

  it('as a tool output guardrail, a clean output reaches the model unchanged, whatever the behaviour', async () => {
    for (const behavior of [undefined, 'redact', 'rejectContent', 'throwException'] as const) {
      const clean = toolRun({ text: 'x' }, { customer: 'Jane' }, { outputGuardrails: [piiCheck().toolOutputGuardrail(behavior ? { behavior } : {})] });
      const result = await run(clean.agent, 'go');
      expect(resultText(clean.model.calls[1], 'c1')).toBe('{"customer":"Jane"}');
      expect(result.toolOutputGuardrailResults[0]!.output.behavior).toEqual({ type: 'allow' });
    }
  });

  it('as a tool input guardrail, behaviour rejectContent may be given explicitly', async () => {
    const rejecting = toolRun({ text: `use ${FAKE.openaiKey}` }, 'x', { inputGuardrails: [secretsCheck().toolInputGuardrail({ behavior: 'rejectContent' })] });
    await run(rejecting.agent, 'go');
    expect(rejecting.invoked).toEqual([]);
    expect(resultText(rejecting.model.calls[1], 'c1')).toBe('Remove secrets before calling this tool.');
  });

  it('as an output guardrail, takes a timeout: a check slower than it fails the run', async () => {
    const stuck = defineCheck({ name: 'stuck', inspect: () => new Promise<never>(() => {}) });
    expect(stuck.outputGuardrail({ timeoutMs: 40 })).toMatchObject({ name: 'stuck', timeoutMs: 40 });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('hi')]]), outputGuardrails: [stuck.outputGuardrail({ timeoutMs: 40 })] });
    const error = await rejectionOf(run(agent, 'go'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
  });

  it('says what is wrong, naming the check and the option', () => {
    expect(() => defineCheck(undefined as never)).toThrow('defineCheck: expected an options object, got undefined.');
    expect(() => defineCheck({ name: 'c', inspect: () => ({ tripped: false, info: null }), rejectMessage: 5 } as never)).toThrow(
      'defineCheck("c"): `rejectMessage` must be a string, got number.',
    );
    const check = defineCheck({ name: 'c', inspect: () => ({ tripped: false, info: null }) });
    expect(() => check.toolInputGuardrail({ behavior: 'redact' as never })).toThrow(
      'defineCheck("c").toolInputGuardrail: `behavior` must be one of \'rejectContent\', \'throwException\', got "redact".',
    );
    expect(() => check.toolInputGuardrail({ message: 5 as never })).toThrow('defineCheck("c").toolInputGuardrail: `message` must be a string, got number.');
    expect(() => check.toolOutputGuardrail({ message: 5 as never })).toThrow('defineCheck("c").toolOutputGuardrail: `message` must be a string, got number.');
  });

  it('rejects bad definitions and options with a UserError naming the field', () => {
    expect(() => defineCheck({ name: 'c', inspect: 'no' } as never)).toThrow(/defineCheck\("c"\): `inspect` must be a function, got string/);
    expect(() => defineCheck({ name: 1, inspect: () => ({ tripped: false, info: null }) } as never)).toThrow(/defineCheck: `name` must be a non-empty string/);
    expect(() => secretsCheck().toolInputGuardrail({ behavior: 'redact' as never })).toThrow(UserError);
    expect(() => secretsCheck().toolOutputGuardrail({ behavior: 'drop' as never })).toThrow(
      /toolOutputGuardrail: `behavior` must be one of 'redact', 'rejectContent', 'throwException', got "drop"/,
    );
  });
});
