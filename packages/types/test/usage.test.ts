import { describe, expect, it } from 'vitest';
import { Usage, type UsageData } from '../src/index.js';

describe('Usage constructor', () => {
  it('starts every counter at zero when given no input', () => {
    const usage = new Usage();
    expect(usage.toJSON()).toEqual({
      requests: 0,
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      inputTokensDetails: [],
      outputTokensDetails: [],
    });
  });

  it.each<{ label: string; input: UsageData; expected: Partial<ReturnType<Usage['toJSON']>> }>([
    { label: 'an empty input counts one request', input: {}, expected: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 } },
    { label: 'an explicit request count is kept', input: { requests: 3 }, expected: { requests: 3 } },
    { label: 'zero requests stays zero', input: { requests: 0, inputTokens: 4 }, expected: { requests: 0, inputTokens: 4 } },
    {
      label: 'totalTokens defaults to input + output',
      input: { inputTokens: 7, outputTokens: 5 },
      expected: { requests: 1, inputTokens: 7, outputTokens: 5, totalTokens: 12 },
    },
    {
      label: 'an explicit totalTokens wins',
      input: { inputTokens: 7, outputTokens: 5, totalTokens: 20 },
      expected: { totalTokens: 20 },
    },
    {
      label: 'a details object becomes a one-element list',
      input: { inputTokensDetails: { cached_tokens: 2 }, outputTokensDetails: { reasoning_tokens: 3 } },
      expected: { inputTokensDetails: [{ cached_tokens: 2 }], outputTokensDetails: [{ reasoning_tokens: 3 }] },
    },
    {
      label: 'a details list is kept as a list',
      input: { inputTokensDetails: [{ a: 1 }, { b: 2 }] },
      expected: { inputTokensDetails: [{ a: 1 }, { b: 2 }], outputTokensDetails: [] },
    },
  ])('$label', ({ input, expected }) => {
    expect(new Usage(input).toJSON()).toMatchObject(expected);
  });

  it('copies a details list instead of aliasing the caller’s array', () => {
    const details = [{ a: 1 }];
    const usage = new Usage({ inputTokensDetails: details });
    usage.add({ inputTokensDetails: { b: 2 } });
    expect(details).toEqual([{ a: 1 }]);
  });
});

describe('Usage.add', () => {
  it('adds every counter and appends details, in place', () => {
    const usage = new Usage({ inputTokens: 1, outputTokens: 2, inputTokensDetails: { cached_tokens: 1 } });
    const result = usage.add(
      new Usage({ requests: 2, inputTokens: 10, outputTokens: 20, inputTokensDetails: { cached_tokens: 5 }, outputTokensDetails: [{ r: 1 }] }),
    );
    expect(result).toBeUndefined();
    expect(usage.toJSON()).toEqual({
      requests: 3,
      inputTokens: 11,
      outputTokens: 22,
      totalTokens: 33,
      inputTokensDetails: [{ cached_tokens: 1 }, { cached_tokens: 5 }],
      outputTokensDetails: [{ r: 1 }],
    });
  });

  it('treats missing fields of plain usage data as zero', () => {
    const usage = new Usage();
    usage.add({ inputTokens: 4 });
    usage.add({ requests: 1, totalTokens: 9 });
    expect(usage.toJSON()).toMatchObject({ requests: 1, inputTokens: 4, outputTokens: 0, totalTokens: 9 });
  });

  it('accumulates across many calls', () => {
    const usage = new Usage();
    for (let i = 0; i < 5; i++) usage.add(new Usage({ inputTokens: 1, outputTokens: 1 }));
    expect(usage.toJSON()).toMatchObject({ requests: 5, inputTokens: 5, outputTokens: 5, totalTokens: 10 });
  });

  it('serializes to plain JSON through toJSON', () => {
    const usage = new Usage({ inputTokens: 2, outputTokens: 3 });
    expect(JSON.parse(JSON.stringify(usage))).toEqual({
      requests: 1,
      inputTokens: 2,
      outputTokens: 3,
      totalTokens: 5,
      inputTokensDetails: [],
      outputTokensDetails: [],
    });
  });

  it('keeps its own copies of token details: changing the source usage later does not change the sum', () => {
    const source = new Usage({ inputTokens: 10, outputTokens: 5, inputTokensDetails: { cached_tokens: 2 }, outputTokensDetails: { reasoning_tokens: 3 } });
    const sum = new Usage();
    sum.add(source);
    source.inputTokensDetails[0]!.cached_tokens = 99;
    source.outputTokensDetails[0]!.reasoning_tokens = 99;
    expect(sum.inputTokensDetails).toEqual([{ cached_tokens: 2 }]);
    expect(sum.outputTokensDetails).toEqual([{ reasoning_tokens: 3 }]);
    expect(sum.requestUsageEntries?.[0]?.inputTokensDetails).toEqual({ cached_tokens: 2 });
  });
});
