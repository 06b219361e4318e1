import { describe, expect, it } from 'vitest';
import { UserError } from '@baton/core';
import { bannedTopicsCheck } from '../src/index.js';

const inspect = (check: ReturnType<typeof bannedTopicsCheck>, text: string) => check.inspect({ source: 'input', value: text, text });

describe('bannedTopicsCheck', () => {
  const check = bannedTopicsCheck(['election', 'stock tips', 'C++', 'café']);

  it.each([
    ['a keyword in another case', 'Who wins the ELECTION?', ['election']],
    ['a phrase across spaces and line breaks', 'any Stock \n tips for me', ['stock tips']],
    ['a keyword with symbols', 'I write c++ daily', ['C++']],
    ['a non-ASCII keyword', 'Un Café, svp', ['café']],
    ['several', 'election stock tips', ['election', 'stock tips']],
  ])('matches %s', async (_, text, keywords) => {
    const verdict = await inspect(check, text);
    expect(verdict.tripped).toBe(true);
    expect(verdict.info.keywords).toEqual(keywords);
  });

  it.each([
    ['a longer word', 'elections are coming'],
    ['a word containing it', 'the reelection campaign'],
    ['a longer non-ASCII word', 'deux cafés'],
    ['a keyword glued to letters', 'stocktips'],
    ['an underscore-joined identifier', 'election_id'],
  ])('does not match %s', async (_, text) => {
    expect((await inspect(check, text)).tripped).toBe(false);
  });

  it('reports topics when keywords are grouped', async () => {
    const grouped = bannedTopicsCheck({ keywords: { politics: ['election', 'senate'], finance: ['stock tips'] }, name: 'off_topic' });
    expect(grouped.name).toBe('off_topic');
    const verdict = await inspect(grouped, 'The Senate and the election');
    expect(verdict.info).toEqual({ topics: ['politics'], keywords: ['election', 'senate'] });
  });

  it('rejects an empty or non-string keyword list with a UserError', () => {
    expect(() => bannedTopicsCheck([])).toThrow(UserError);
    expect(() => bannedTopicsCheck({ keywords: { politics: [''] } })).toThrow(/keywords of "politics" must be non-empty strings/);
    expect(() => bannedTopicsCheck([3 as never])).toThrow(UserError);
  });
});
