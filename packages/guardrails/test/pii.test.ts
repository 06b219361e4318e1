import { describe, expect, it } from 'vitest';
import { UserError } from '@baton/core';
import { piiCheck, type CheckSubject } from '../src/index.js';
import { FAKE } from './fixtures.js';

const subject = (text: string): CheckSubject => ({ source: 'output', value: text, text });
const inspect = async (text: string, check = piiCheck()) => check.inspect(subject(text));

describe('piiCheck', () => {
  it.each([
    ['an email', 'write to jane.doe+work@example.co.uk today', 'email'],
    ['a US phone in parentheses', 'call (650) 555-0101', 'phone'],
    ['a dashed US phone', 'call 650-555-0101.', 'phone'],
    ['a dotted US phone with country code', 'call 1.650.555.0101', 'phone'],
    ['an international phone', 'ring +44 20 7946 0958', 'phone'],
    ['a compact E.164 phone', 'sms +14155552671', 'phone'],
    ['a spaced Visa number', `card ${FAKE.visa}`, 'card_number'],
    ['an Amex number', `amex ${FAKE.amex}`, 'card_number'],
    ['a dashed Mastercard number', `mc ${FAKE.mastercard}`, 'card_number'],
  ])('finds %s', async (_, text, kind) => {
    const verdict = await inspect(text);
    expect(verdict.tripped).toBe(true);
    expect(verdict.info.detected).toEqual([kind]);
  });

  it.each([
    ['a date', 'due 2024-01-15'],
    ['a version', 'release 1.2.3'],
    ['a short number', 'order 12345'],
    ['a 7-digit local number', 'extension 555-0101'],
    ['a card-like number failing the Luhn check', 'card 4111 1111 1111 1112'],
    ['a long id that fails Luhn', 'id 1234567890123456'],
    ['an at-sign without a domain', 'meet @ noon, ping @team'],
  ])('does not flag %s', async (_, text) => {
    expect((await inspect(text)).tripped).toBe(false);
  });

  it('redacts each finding by kind; card digits are not also reported as phone numbers', async () => {
    const verdict = await inspect(`Mail a.b@example.com or call (650) 555-0101; card ${FAKE.visa}.`);
    expect(verdict.redacted).toBe('Mail [REDACTED:email] or call [REDACTED:phone]; card [REDACTED:card_number].');
    expect(verdict.info.counts).toEqual({ card_number: 1, email: 1, phone: 1 });
    expect(verdict.info.detected).toEqual(['email', 'phone', 'card_number']);
  });

  it('can look for some kinds only', async () => {
    const phonesOnly = piiCheck({ kinds: ['phone'] });
    expect((await inspect('a@b.co', phonesOnly)).tripped).toBe(false);
    expect((await inspect('650-555-0101', phonesOnly)).tripped).toBe(true);
    expect(() => piiCheck({ kinds: ['ssn' as never] })).toThrow(/unknown kind "ssn"/);
    expect(() => piiCheck({ kinds: [] })).toThrow(UserError);
  });
});
