import { describe, expect, it } from 'vitest';
import { UserError } from '@baton/core';
import { bannedTopicsCheck } from '../src/index.js';

const inspect = (check: ReturnType<typeof bannedTopicsCheck>, text: string) => check.inspect({ source: 'input', value: text, text });

describe('bannedTopicsCheck', () => {
  // Built inside each test (not once for the file), so that what the constructor does is part of the test that uses it.
  const check = () => bannedTopicsCheck(['election', 'stock tips', 'C++', 'café']);

  it.each([
    ['a keyword in another case', 'Who wins the ELECTION?', ['election']],
    ['a phrase across spaces and line breaks', 'any Stock \n tips for me', ['stock tips']],
    ['a keyword with symbols', 'I write c++ daily', ['C++']],
    ['a non-ASCII keyword', 'Un Café, svp', ['café']],
    ['several', 'election stock tips', ['election', 'stock tips']],
  ])('matches %s', async (_, text, keywords) => {
    const verdict = await inspect(check(), text);
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
    expect((await inspect(check(), text)).tripped).toBe(false);
  });

  it('reports topics when keywords are grouped', async () => {
    const grouped = bannedTopicsCheck({ keywords: { politics: ['election', 'senate'], finance: ['stock tips'] }, name: 'off_topic' });
    expect(grouped.name).toBe('off_topic');
    const verdict = await inspect(grouped, 'The Senate and the election');
    expect(verdict.info).toEqual({ topics: ['politics'], keywords: ['election', 'senate'] });
  });

  it('keywords with regular-expression symbols match those symbols literally', async () => {
    const symbols = bannedTopicsCheck(['C++', 'node.js', 'a|b']);
    expect((await inspect(symbols, 'I write C++')).tripped).toBe(true);
    expect((await inspect(symbols, 'the letter C on its own')).tripped).toBe(false);
    expect((await inspect(symbols, 'we ship nodexjs')).tripped).toBe(false);
    expect((await inspect(symbols, 'pick a or b')).tripped).toBe(false);
    expect((await inspect(symbols, 'a|b testing')).info.keywords).toEqual(['a|b']);
  });

  it('a phrase is its words: surrounding spaces are ignored, and any run of white space between words matches', async () => {
    const padded = bannedTopicsCheck(['  election ', 'stock   tips']);
    expect((await inspect(padded, 'election day')).info.keywords).toEqual(['  election ']);
    expect((await inspect(padded, 'free stock tips')).info.keywords).toEqual(['stock   tips']);
    expect((await inspect(padded, 'free stock\ttips')).tripped).toBe(true);
  });

  it('as a tool guardrail, tells the model its default message (or the one given)', () => {
    expect(bannedTopicsCheck(['election']).rejectMessage).toBe('This request touches a topic this tool does not handle.');
    expect(bannedTopicsCheck({ keywords: ['election'], rejectMessage: 'Not here.' }).rejectMessage).toBe('Not here.');
    expect(bannedTopicsCheck(['election']).name).toBe('banned_topics');
  });

  it('keywords missing altogether (untyped JavaScript) are the same UserError, not a TypeError', () => {
    const message = 'bannedTopicsCheck: `keywords` must be a non-empty list of strings (or of lists by topic).';
    for (const bad of [undefined, null, {}, { keywords: null }, { keywords: 'election' }, { keywords: {} }, { keywords: { politics: [] } }]) {
      expect(() => bannedTopicsCheck(bad as never)).toThrow(UserError);
      expect(() => bannedTopicsCheck(bad as never)).toThrow(message);
    }
  });

  it('one bad keyword among good ones, or a blank one, is refused', () => {
    expect(() => bannedTopicsCheck({ keywords: { politics: ['election', ''] } })).toThrow('bannedTopicsCheck: the keywords of "politics" must be non-empty strings.');
    expect(() => bannedTopicsCheck(['election', '   '])).toThrow('bannedTopicsCheck: the keywords of "   " must be non-empty strings.');
    expect(() => bannedTopicsCheck({ keywords: { politics: ['election', 7 as never] } })).toThrow(UserError);
    expect(() => bannedTopicsCheck({ keywords: { politics: 'election' as never, finance: ['stocks'] } })).toThrow('the keywords of "politics" must be non-empty strings');
  });

  it('rejects an empty or non-string keyword list with a UserError', () => {
    expect(() => bannedTopicsCheck([])).toThrow(UserError);
    expect(() => bannedTopicsCheck({ keywords: { politics: [''] } })).toThrow(/keywords of "politics" must be non-empty strings/);
    expect(() => bannedTopicsCheck([3 as never])).toThrow(UserError);
  });
});
