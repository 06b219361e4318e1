import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, ToolCallError, ToolInputGuardrailTripwireTriggered, UserError, run, tool } from '@baton/core';
import { bannedTopicsCheck, blockSecrets, defineCheck, piiCheck, redactOutput, secretsCheck, type CheckSubject } from '../src/index.js';
import { FAKE } from './fixtures.js';
import { rejectionOf, resultText } from './helpers.js';

/** The seeds' classify_text tool, returning `returns` (by default `length:<n>`). */
function classifier(text: string, options: { returns?: (text: string) => unknown; input?: ReturnType<typeof blockSecrets>[]; output?: ReturnType<typeof redactOutput>[] }) {
  const invoked: string[] = [];
  const classifyTool = tool({
    name: 'classify_text',
    description: 'Classify text for internal routing.',
    parameters: z.object({ text: z.string() }),
    inputGuardrails: options.input ?? [],
    outputGuardrails: options.output ?? [],
    execute: ({ text }) => (invoked.push(text), options.returns ? options.returns(text) : `length:${text.length}`),
  });
  const model = new ScriptedModel([[functionCall('classify_text', { text }, { callId: 'c1' })], [assistantMessage('routed')]]);
  return { agent: new Agent({ name: 'Classifier', instructions: 'Classify incoming text.', model, tools: [classifyTool] }), model, invoked };
}

describe('blockSecrets', () => {
  it('is the block_secrets tool input guardrail: a call carrying a secret is not run, the model is told why', async () => {
    const text = `please classify ${FAKE.openaiKey}`;
    const { agent, model, invoked } = classifier(text, { input: [blockSecrets()] });
    // The guardrail reads the raw JSON arguments; positions are offsets in that text.
    const start = JSON.stringify({ text }).indexOf(FAKE.openaiKey);
    const result = await run(agent, 'classify this');
    expect(invoked).toEqual([]);
    expect(resultText(model.calls[1], 'c1')).toBe('Remove secrets before calling this tool.');
    expect(result.toolInputGuardrailResults).toEqual([
      {
        guardrail: { type: 'tool_input', name: 'block_secrets' },
        output: {
          behavior: { type: 'rejectContent', message: 'Remove secrets before calling this tool.' },
          outputInfo: { detected: ['openai_api_key'], counts: { openai_api_key: 1 }, findings: [{ kind: 'openai_api_key', start, end: start + FAKE.openaiKey.length }] },
        },
      },
    ]);
  });

  it('lets clean calls through', async () => {
    const { agent, model, invoked } = classifier('a normal sentence', { input: [blockSecrets()] });
    await run(agent, 'classify this');
    expect(invoked).toEqual(['a normal sentence']);
    expect(resultText(model.calls[1], 'c1')).toBe('length:17');
  });

  it('takes a name, a message, a behaviour and the secret kinds', async () => {
    const guardrail = blockSecrets({ name: 'no_aws', kinds: ['aws_access_key_id'], message: 'No AWS keys.' });
    expect(guardrail).toMatchObject({ type: 'tool_input', name: 'no_aws' });

    const aws = classifier(`id ${FAKE.awsAccessKeyId}`, { input: [guardrail] });
    const result = await run(aws.agent, 'classify this');
    expect(aws.invoked).toEqual([]);
    expect(resultText(aws.model.calls[1], 'c1')).toBe('No AWS keys.');
    expect(result.toolInputGuardrailResults[0]!.guardrail).toEqual({ type: 'tool_input', name: 'no_aws' });

    // Only the kinds asked for: an OpenAI key passes this guardrail.
    const openai = classifier(`key ${FAKE.openaiKey}`, { input: [guardrail] });
    await run(openai.agent, 'classify this');
    expect(openai.invoked).toEqual([`key ${FAKE.openaiKey}`]);
  });

  it('with behavior throwException, a call carrying a secret fails the run', async () => {
    const { agent, invoked } = classifier(`key ${FAKE.openaiKey}`, { input: [blockSecrets({ behavior: 'throwException' })] });
    const error = await rejectionOf(run(agent, 'classify this'));
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error.error).toBeInstanceOf(ToolInputGuardrailTripwireTriggered);
    expect(error.error.result.guardrail).toEqual({ type: 'tool_input', name: 'block_secrets' });
    expect(invoked).toEqual([]);
  });
});

describe('redactOutput', () => {
  it('is the redact_output tool output guardrail: the model gets the output with secrets and PII masked', async () => {
    const { agent, model } = classifier('lookup', {
      output: [redactOutput()],
      returns: () => `owner jane@example.com, key ${FAKE.openaiKey}, phone +1 650 555 0101`,
    });
    const result = await run(agent, 'classify this');
    expect(resultText(model.calls[1], 'c1')).toBe('owner [REDACTED:email], key [REDACTED:openai_api_key], phone [REDACTED:phone]');
    const [verdict] = result.toolOutputGuardrailResults;
    expect(verdict!.guardrail).toEqual({ type: 'tool_output', name: 'redact_output' });
    expect(verdict!.output.behavior.type).toBe('rejectContent');
    expect(Object.keys((verdict!.output.outputInfo as { redacted: object }).redacted)).toEqual(['secrets', 'pii']);
  });

  it('redacts inside structured outputs (sent as JSON) and leaves clean outputs alone', async () => {
    const structured = classifier('x', { output: [redactOutput()], returns: () => ({ user: 'Jane', card: FAKE.visa }) });
    await run(structured.agent, 'go');
    expect(resultText(structured.model.calls[1], 'c1')).toBe('{"user":"Jane","card":"[REDACTED:card_number]"}');

    const clean = classifier('x', { output: [redactOutput()], returns: () => ({ user: 'Jane' }) });
    const result = await run(clean.agent, 'go');
    expect(resultText(clean.model.calls[1], 'c1')).toBe('{"user":"Jane"}');
    expect(result.toolOutputGuardrailResults[0]!.output).toEqual({ behavior: { type: 'allow' }, outputInfo: { redacted: {} } });
  });

  it('takes its own checks; a check that cannot redact withholds the output', async () => {
    const onlySecrets = classifier('x', { output: [redactOutput({ checks: [secretsCheck()] })], returns: () => 'mail jane@example.com' });
    await run(onlySecrets.agent, 'go');
    expect(resultText(onlySecrets.model.calls[1], 'c1')).toBe('mail jane@example.com');

    const topics = bannedTopicsCheck({ keywords: ['merger'], rejectMessage: 'Withheld: confidential topic.' });
    const withheld = classifier('x', { output: [redactOutput({ checks: [topics] })], returns: () => 'the merger closes Friday' });
    await run(withheld.agent, 'go');
    expect(resultText(withheld.model.calls[1], 'c1')).toBe('Withheld: confidential topic.');

    expect(() => redactOutput({ checks: [] })).toThrow(UserError);
  });

  it('hands each check the tool output as a tool_output subject', async () => {
    const seen: CheckSubject[] = [];
    const spy = defineCheck({ name: 'spy', inspect: (subject) => (seen.push(subject), { tripped: false, info: null }) });
    const spied = classifier('x', { output: [redactOutput({ checks: [spy] })], returns: () => ({ user: 'Jane' }) });
    await run(spied.agent, 'go');
    expect(seen).toEqual([{ source: 'tool_output', value: { user: 'Jane' }, text: '{"user":"Jane"}' }]);
  });

  it('refuses checks that are not checks, saying what it expects', () => {
    const message = 'redactOutput: `checks` must be a non-empty array of checks (secretsCheck(), piiCheck(), ...).';
    for (const bad of [[], [secretsCheck(), {}], [piiCheck(), null], [undefined], 'secrets', secretsCheck()]) {
      expect(() => redactOutput({ checks: bad as never })).toThrow(UserError);
      expect(() => redactOutput({ checks: bad as never })).toThrow(message);
    }
  });
});
