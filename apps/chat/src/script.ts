import { fakeResponder, fakeText, fakeToolCalls, type FakeModelServer, type FakeRequestBody, type FakeStreamOptions, type FakeTurn } from '@baton/testing';

/**
 * The offline model: the fake model server answers every request by reading the conversation it
 * was sent (OpenAI Responses `input`), so the demo follows what the user types:
 * - "refund …" → calls `refund` (the user approves or rejects it), then confirms;
 * - "order …", "where …", "status …" → calls `lookup_order`, then answers from its output;
 * - "research …", "find …", "look into …" → calls the streaming `research` tool, then summarises;
 * - anything else → a greeting that says what to try.
 * Text streams in small pieces with a pause between them, for the typing effect.
 */
export function scriptSupportModel(server: FakeModelServer, pace: FakeStreamOptions): void {
  const turn = fakeResponder(({ body }) => {
    server.enqueue(turn); // answer the next request too
    return answer(body, pace);
  });
  server.enqueue(turn);
}

type Item = Record<string, unknown>;

export const GREETING = "Hi! I'm the shop's support assistant. Try “Where is order 42?”, “Refund order 42” or “Research eco-friendly packaging”.";

function answer(body: FakeRequestBody, pace: FakeStreamOptions): FakeTurn {
  const input: Item[] = Array.isArray(body.input) ? body.input : [];
  const last = input.at(-1);
  const options = { stream: pace };
  if (last?.type === 'function_call_output') {
    const call = input.find((item) => item.type === 'function_call' && item.call_id === last.call_id);
    const output = outputText(last.output);
    switch (call?.name) {
      case 'lookup_order':
        return fakeText(`${output} Anything else I can help with?`, options);
      case 'refund':
        return fakeText(output.startsWith('Refunded') ? `Done: ${output} The money is on its way back to your card.` : 'Understood, no refund was made. The order stays as it is.', options);
      case 'research':
        return fakeText(`Here is what I found: ${output.replace(/^Research on "[^"]*": /, '')} I would pick the cardboard mailers.`, options);
      default:
        return fakeText(output, options);
    }
  }
  const text = userText(last);
  const orderId = /\b(\d+)\b/.exec(text)?.[1] ?? '42';
  if (/refund/i.test(text)) {
    return fakeToolCalls([{ name: 'refund', arguments: { orderId, amountEur: orderId === '7' ? 12.5 : 48 } }], { ...options, text: `I can refund order ${orderId} for you; a person has to approve it first.` });
  }
  if (/order|where|status/i.test(text)) return fakeToolCalls([{ name: 'lookup_order', arguments: { orderId } }], { ...options, text: `Let me look up order ${orderId}.` });
  if (/research|find|look into/i.test(text)) {
    const topic = text.replace(/^(please\s+)?(research|find( out)?( about)?|look into)\s*/i, '').replace(/[?.!]+$/, '') || 'packaging';
    return fakeToolCalls([{ name: 'research', arguments: { topic } }], { ...options, text: 'I will look into it; this takes a few seconds.' });
  }
  return fakeText(GREETING, options);
}

function userText(item: Item | undefined): string {
  if (item === undefined) return '';
  const content = item.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part: Item) => (typeof part.text === 'string' ? part.text : '')).join('') : '';
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  return Array.isArray(output) ? output.map((part: Item) => (typeof part.text === 'string' ? part.text : '')).join('') : JSON.stringify(output);
}
