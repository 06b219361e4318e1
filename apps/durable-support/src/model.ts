/**
 * The offline stand-in for an LLM. It is stateless, as a hosted model is: it answers from the
 * conversation it is sent and nothing else, so whichever worker continues a run (after a crash, or
 * after an approval days later) gets the same kind of answer. Swap it for a real model
 * (`@baton/openai-provider`, `@baton/ai-sdk-provider`) and nothing else changes.
 *
 * Its policy: look the order up first; if the customer asked for a refund and the order was charged
 * twice, refund the duplicate charge; then answer. It "thinks" for `thinkMs` once a tool result is in
 * the conversation: that is the window in which the example kills a worker.
 */
import type { AgentInputItem, Model, ModelRequest, ModelResponse, ModelStreamEvent } from '@baton/core';
import type pg from 'pg';

export interface SupportModelOptions {
  /** Where each call is counted (`support.model_calls`), and by whom. */
  readonly db: pg.Pool;
  readonly executor: string;
  /** How long an answer takes once a tool result is in the conversation. */
  readonly thinkMs?: number;
}

const usage = { requests: 1, inputTokens: 50, outputTokens: 20, totalTokens: 70 };

function textOf(output: unknown): string {
  if (typeof output === 'string') return output;
  const text = (output as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : JSON.stringify(output);
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

export class SupportModel implements Model {
  readonly modelName = 'support-stand-in';

  constructor(private readonly options: SupportModelOptions) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const items: AgentInputItem[] = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
    const user = items.find((item) => 'role' in item && item.role === 'user') as { content: unknown } | undefined;
    const question = typeof user?.content === 'string' ? user.content : '';
    const orderId = /order\s*#?\s*(\d+)/i.exec(question)?.[1] ?? 'unknown';
    const results = items.filter((item) => item.type === 'function_call_result') as Array<{ name: string; output: unknown }>;
    await this.options.db.query('INSERT INTO support.model_calls (order_id, turn, executor) VALUES ($1, $2, $3)', [orderId, results.length, this.options.executor]);
    if (results.length > 0) await sleep(this.options.thinkMs ?? 0, request.signal);

    const call = (name: string, args: object) => ({
      type: 'function_call' as const,
      callId: `call_${name}_${orderId}`,
      name,
      arguments: JSON.stringify(args),
      status: 'completed' as const,
    });
    const lookup = results.find((result) => result.name === 'lookup_order');
    if (!lookup) return { usage, output: [call('lookup_order', { orderId })] };
    const order = parse(textOf(lookup.output));
    const refund = results.find((result) => result.name === 'refund_order');
    if (/refund/i.test(question) && !refund && order?.chargedTwice === true) {
      return { usage, output: [call('refund_order', { orderId, amountUsd: order.amountUsd })] };
    }

    let answer = order ? `Order ${orderId} is ${String(order.status)} (${String(order.item)}).` : `I could not find order ${orderId}.`;
    if (refund) {
      const done = parse(textOf(refund.output));
      answer += done ? ` I refunded the duplicate charge of $${String(done.amountUsd)}.` : ` The refund was not made: ${textOf(refund.output)}`;
    }
    return { usage, output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer }] }] };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const response = await this.getResponse(request);
    yield { type: 'response_done', response: { id: 'resp', usage: response.usage as never, output: response.output } };
  }
}
