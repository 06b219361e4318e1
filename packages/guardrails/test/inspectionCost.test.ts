import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, UserError, run, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { DEFAULT_MAX_INSPECTED_CHARS, TOO_LONG_TO_INSPECT, piiCheck, redactOutput, secretsCheck, type CheckSubject } from '../src/index.js';
import { resultText } from './helpers.js';

const subject = (text: string): CheckSubject => ({ source: 'tool_output', value: text, text });
const HEADER = '-----BEGIN RSA PRIVATE KEY-----\n';

/**
 * Runs `fn` and returns how long it blocked, in ms, after one small warm-up run (so compiling the
 * code is not counted). Used only with bounds far above the expected time: the machine may be busy.
 */
async function blockedFor(fn: () => unknown, warmUp: () => unknown): Promise<number> {
  await warmUp();
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

describe('crafted text does not make the checks quadratic', () => {
  it('1.1 MB of private key headers (16 s before) is inspected well within 2 s', async () => {
    const text = HEADER.repeat(34_000);
    let findings = 0;
    const ms = await blockedFor(async () => {
      const verdict = await secretsCheck({ maxInspectedChars: Infinity }).inspect(subject(text));
      findings = verdict.info.findings.length;
    }, () => secretsCheck().inspect(subject(HEADER.repeat(100))));
    expect(findings).toBe(34_000);
    expect(ms).toBeLessThan(2_000);
  });

  it('tens of thousands of personal data findings (many seconds before: the overlap checks were quadratic) are inspected well within 2 s', async () => {
    const text = 'mail a@b.co or call +1 650 555 0101; '.repeat(12_000);
    let counts: Record<string, number> = {};
    const ms = await blockedFor(async () => {
      counts = (await piiCheck().inspect(subject(text))).info.counts;
    }, () => piiCheck().inspect(subject(text.slice(0, 4_000))));
    expect(counts).toEqual({ email: 12_000, phone: 12_000 });
    expect(ms).toBeLessThan(2_000);
  });
});

describe('the inspected-text limit', () => {
  it('defaults to 1,000,000 characters', () => {
    expect(DEFAULT_MAX_INSPECTED_CHARS).toBe(1_000_000);
  });

  it.each([
    ['secretsCheck', (max: number) => secretsCheck({ maxInspectedChars: max })],
    ['piiCheck', (max: number) => piiCheck({ maxInspectedChars: max })],
  ])('%s inspects a text up to the limit, and trips on a longer one without reading it', async (_name, make) => {
    const check = make(40);
    const clean = 'x'.repeat(40);
    expect((await check.inspect(subject(clean))).tripped).toBe(false);
    const longer = `${clean}y`;
    const verdict = await check.inspect(subject(longer));
    expect(verdict).toMatchObject({
      tripped: true,
      info: { detected: [TOO_LONG_TO_INSPECT], counts: { [TOO_LONG_TO_INSPECT]: 1 }, findings: [{ kind: TOO_LONG_TO_INSPECT, start: 0, end: 41 }] },
      redacted: `[REDACTED:${TOO_LONG_TO_INSPECT}]`,
    });
  });

  it('applies the default limit: 1.1 MB of headers trips as too long to inspect', async () => {
    const verdict = await secretsCheck().inspect(subject(HEADER.repeat(34_000)));
    expect(verdict.info.detected).toEqual([TOO_LONG_TO_INSPECT]);
  });

  it('as the redact_output guardrail, an over-long tool output reaches the model only as the marker', async () => {
    const model = new ScriptedModel([[functionCall('fetch_page', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    const fetchPage = tool({
      name: 'fetch_page',
      description: 'Fetches a page.',
      parameters: z.object({}),
      outputGuardrails: [redactOutput({ checks: [secretsCheck({ maxInspectedChars: 10 }), piiCheck({ maxInspectedChars: 10 })] })],
      execute: () => 'a page longer than ten characters',
    });
    await run(new Agent({ name: 'Reader', model, tools: [fetchPage] }), 'read it');
    expect(resultText(model.calls[1], 'c1')).toBe(`[REDACTED:${TOO_LONG_TO_INSPECT}]`);
  });

  it.each([0, -1, 1.5, Number.NaN, '10'])('refuses maxInspectedChars %s with a UserError', (value) => {
    expect(() => secretsCheck({ maxInspectedChars: value as number })).toThrow(UserError);
    expect(() => piiCheck({ maxInspectedChars: value as number })).toThrow(/maxInspectedChars/);
  });
});

describe('private key blocks are found as before', () => {
  const find = async (text: string) => (await secretsCheck({ kinds: ['private_key'] }).inspect(subject(text))).info.findings;

  it('a block runs from its header to the first end marker; headers inside it are part of it', async () => {
    const block = `${HEADER}abc\n${HEADER}def\n-----END RSA PRIVATE KEY-----`;
    expect(await find(`x ${block} y`)).toEqual([{ kind: 'private_key', start: 2, end: 2 + block.length }]);
  });

  it('a header with no end after it is reported alone; a later block is still found whole', async () => {
    const end = '-----END PRIVATE KEY-----';
    const text = `${end}\n${HEADER}${'-----BEGIN PRIVATE KEY-----'}body${end}`;
    const findings = await find(text);
    expect(findings).toEqual([
      { kind: 'private_key', start: end.length + 1, end: text.length },
    ]);
    const headerOnly = await find(`${HEADER}tail`);
    expect(headerOnly).toEqual([{ kind: 'private_key', start: 0, end: HEADER.length - 1 }]);
  });
});
