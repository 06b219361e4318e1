import { describe, expect, it } from 'vitest';
import { providersExample } from '../src/providers/providersExample.js';

// The same graph on three provider setups, each vendor reached through its real client over HTTP
// (the local server records which route and model each request used).
describe('providers example', () => {
  it.each([
    ['openai', ['openai gpt-4.1-nano', 'openai gpt-4.1-mini', 'openai gpt-4.1', 'openai gpt-4.1']],
    ['anthropic', ['anthropic claude-haiku-4-5', 'anthropic claude-haiku-4-5', 'anthropic claude-sonnet-4-5', 'anthropic claude-sonnet-4-5']],
    ['mixed', ['google gemini-2.5-flash-lite', 'openai gpt-4.1-mini', 'anthropic claude-sonnet-4-5', 'anthropic claude-sonnet-4-5']],
  ] as const)('%s: hands off, pauses for the refund, resumes from a string, and stops an off-topic request', async (setup, requests) => {
    const lines: string[] = [];
    const outcome = await providersExample(setup, (line) => void lines.push(line));
    expect(outcome.pausedOn).toEqual(['refund_order {"orderId":"1234","amountUsd":42}']);
    expect(outcome.lastAgent).toBe('Billing specialist');
    expect(outcome.finalOutput).toBe('I refunded $42.00 for order 1234; it reaches your card in 3 to 5 days.');
    expect(outcome.offTopicTripped).toBe(true);
    expect(outcome.triageAborted).toBe(true);
    // The guardrail and triage start together; the guardrail's request is sent first.
    expect([...outcome.requests.slice(0, 2)].sort()).toEqual([...requests.slice(0, 2)].sort());
    expect(outcome.requests.slice(2)).toEqual(requests.slice(2));
    expect(lines[0]).toContain(`setup '${setup}'`);
  });
});
