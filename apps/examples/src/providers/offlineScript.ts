/**
 * The offline stand-in for three vendors: one local server that speaks OpenAI's, Anthropic's and
 * Google's wire formats and answers each request by what it asks (the checker, triage or the
 * specialist), whichever vendor's client sent it. The guardrail and triage requests run at the same
 * time, so answers are chosen from the request, not from their order.
 */
import { fakeResponder, fakeText, fakeToolCalls, type FakeModelServer, type FakeRequestBody, type FakeTurn } from '@baton/testing';
import { CHECKER_INSTRUCTIONS, SPECIALIST_INSTRUCTIONS } from './supportAgents.js';

function answer(body: FakeRequestBody): FakeTurn {
  const sent = JSON.stringify(body);
  if (sent.includes(CHECKER_INSTRUCTIONS)) {
    const onTopic = !sent.includes('poem');
    // The checker is the cheap, fast model; triage takes longer, so a tripped check aborts it.
    return fakeText(JSON.stringify({ onTopic, reason: onTopic ? 'A billing question.' : 'A request for a poem.' }), { delayMs: 40 });
  }
  if (sent.includes('Refunded $')) return fakeText('I refunded $42.00 for order 1234; it reaches your card in 3 to 5 days.');
  if (sent.includes(SPECIALIST_INSTRUCTIONS)) return fakeToolCalls([{ name: 'refund_order', arguments: { orderId: '1234', amountUsd: 42 } }]);
  return fakeToolCalls([{ name: 'transfer_to_Billing_specialist', arguments: {} }], { delayMs: 400 });
}

/** Scripts `count` requests, each answered by what it asks. */
export function scriptRequests(server: FakeModelServer, count: number): void {
  for (let i = 0; i < count; i++) server.enqueue(fakeResponder(({ body }) => answer(body)));
}
