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

  it('finds card numbers of every length cards have, 13 to 19 digits, when they pass the Luhn check', async () => {
    expect((await inspect('card 4222222222222')).info.detected).toEqual(['card_number']);
    expect((await inspect('card 4000000000000000006')).info.detected).toEqual(['card_number']);
    expect((await inspect('card 4000000000000000007')).tripped).toBe(false);
  });

  it('an international number has 8 to 15 digits (E.164): shorter or longer digit runs after a + are not phone numbers', async () => {
    expect((await inspect('call +49 30 1234')).info.detected).toEqual(['phone']); // 8 digits
    expect((await inspect('call +123 4567 8901 2345')).info.detected).toEqual(['phone']); // 15 digits
    expect((await inspect('call +1 234 567')).tripped).toBe(false); // 7 digits
    expect((await inspect('call +123 4567 8901 2345 6')).tripped).toBe(false); // 16 digits
  });

  it('tells the model its default message (or the one given)', () => {
    expect(piiCheck().rejectMessage).toBe('Remove personal data (emails, phone numbers, card numbers) before calling this tool.');
    expect(piiCheck({ rejectMessage: 'No personal data.' }).rejectMessage).toBe('No personal data.');
    expect(piiCheck().name).toBe('pii');
  });

  it('says what is wrong with bad options, naming piiCheck', () => {
    expect(() => piiCheck({ kinds: [] })).toThrow('piiCheck: `kinds` must be a non-empty array.');
    expect(() => piiCheck({ kinds: 'email' as never })).toThrow('piiCheck: `kinds` must be a non-empty array.');
    expect(() => piiCheck({ kinds: ['ssn' as never] })).toThrow('piiCheck: unknown kind "ssn"; known: card_number, email, phone.');
    expect(() => piiCheck({ maxInspectedChars: -5 })).toThrow('piiCheck: `maxInspectedChars` must be a positive integer or Infinity, got -5.');
  });

  it('can look for some kinds only', async () => {
    const phonesOnly = piiCheck({ kinds: ['phone'] });
    expect((await inspect('a@b.co', phonesOnly)).tripped).toBe(false);
    expect((await inspect('650-555-0101', phonesOnly)).tripped).toBe(true);
    expect(() => piiCheck({ kinds: ['ssn' as never] })).toThrow(/unknown kind "ssn"/);
    expect(() => piiCheck({ kinds: [] })).toThrow(UserError);
  });
});
