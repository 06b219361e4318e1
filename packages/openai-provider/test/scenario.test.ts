import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, tool, type RunStreamEvent } from '@baton/core';
import { handoff } from '@baton/handoffs';
import { fakeText, fakeToolCalls } from '@baton/testing';
import { OpenAIProvider, isOpenAIResponsesRawModelStreamEvent, isOpenAIChatCompletionsRawModelStreamEvent } from '../src/index.js';
import { APIS, fakeServer } from './helpers.js';

// A full Baton run over the real openai client and the fake server: a tool call, a handoff, a
// tool call by the new agent, a final answer; plain and streamed, on both APIs.

function agents() {
  const calls: string[] = [];
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Find an order by id.',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      calls.push(`lookup ${orderId}`);
      return { orderId, status: 'delivered', total: 42 };
    },
  });
  const refund = tool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      calls.push(`refund ${orderId}`);
      return `refunded ${orderId}`;
    },
  });
  const billing = new Agent({ name: 'Billing', instructions: 'Handle refunds.', model: 'gpt-4.1-mini', tools: [refund] });
  const triage = new Agent({
    name: 'Triage',
    instructions: 'Look orders up, then hand refunds to Billing.',
    model: 'gpt-4.1',
    tools: [lookupOrder],
    handoffs: [handoff(billing)],
  });
  return { triage, calls };
}

const script = () => [
  fakeToolCalls([{ name: 'lookup_order', arguments: { orderId: 'A1' }, callId: 'call_lookup' }]),
  fakeToolCalls([{ name: 'transfer_to_Billing', arguments: {}, callId: 'call_handoff' }]),
  fakeToolCalls([{ name: 'refund', arguments: { orderId: 'A1' }, callId: 'call_refund' }]),
  fakeText('Order A1 is refunded.'),
];

/** The names of the tools offered in a request body, with their strict flags. */
function offeredTools(body: Record<string, any>): Array<[string, boolean]> {
  return (body.tools ?? []).map((t: any) => (t.function ? [t.function.name, t.function.strict] : [t.name, t.strict]));
}

/** The input items (Responses) or messages (Chat Completions) of a request, compactly. */
function transcript(body: Record<string, any>): string[] {
  if (body.input) {
    return body.input.map((item: any) =>
      item.type === 'function_call' ? `call ${item.name} ${item.call_id}` : item.type === 'function_call_output' ? `output ${item.call_id} ${item.output}` : `${item.role} ${item.content}`,
    );
  }
  return body.messages.flatMap((m: any) =>
    m.tool_calls ? m.tool_calls.map((c: any) => `call ${c.function.name} ${c.id}`) : m.role === 'tool' ? [`output ${m.tool_call_id} ${m.content}`] : [`${m.role} ${m.content}`],
  );
}

describe.each(APIS)('a Baton agent with tools and a handoff over %s', (api) => {
  async function setup() {
    const server = await fakeServer(...script());
    const provider = new OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: api === 'responses' });
    return { server, runner: new Runner({ modelProvider: provider }) };
  }

  it('runs to the final answer and sends what the API expects at each turn', async () => {
    const { server, runner } = await setup();
    const { triage, calls } = agents();
    const result = await runner.run(triage, 'Please refund order A1.');

    expect(result.finalOutput).toBe('Order A1 is refunded.');
    expect(result.lastAgent?.name).toBe('Billing');
    expect(calls).toEqual(['lookup A1', 'refund A1']);
    server.assertComplete();
    const bodies = server.requests.map((r) => r.body);
    expect(bodies.map((b) => b.model)).toEqual(['gpt-4.1', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-mini']);
    // Chat Completions offers handoffs without `strict`, as the reference does.
    expect(offeredTools(bodies[0]!)).toEqual([
      ['lookup_order', true],
      ['transfer_to_Billing', api === 'responses' ? true : undefined],
    ]);
    expect(offeredTools(bodies[2]!)).toEqual([['refund', true]]);
    const lookupOutput = 'output call_lookup {"orderId":"A1","status":"delivered","total":42}';
    expect(transcript(bodies[1]!).slice(-2)).toEqual(['call lookup_order call_lookup', lookupOutput]);
    expect(transcript(bodies[3]!).filter((line) => !line.startsWith('system'))).toEqual([
      'user Please refund order A1.',
      'call lookup_order call_lookup',
      lookupOutput,
      'call transfer_to_Billing call_handoff',
      'output call_handoff {"assistant":"Billing"}',
      'call refund call_refund',
      'output call_refund refunded A1',
    ]);
    expect(result.rawResponses.map((r) => r.requestId)).toEqual(['req_fake_1', 'req_fake_2', 'req_fake_3', 'req_fake_4']);
    expect(result.state.usage.requests).toBe(4);
  });

  it('streams the same run: raw provider events with their source, text deltas and item events', async () => {
    const { server, runner } = await setup();
    const { triage } = agents();
    const streamed = await runner.run(triage, 'Please refund order A1.', { stream: true });
    const events: RunStreamEvent[] = [];
    for await (const event of streamed) events.push(event);
    await streamed.completed;

    expect(streamed.finalOutput).toBe('Order A1 is refunded.');
    expect(server.requests.every((r) => r.stream)).toBe(true);
    const isRaw = api === 'responses' ? isOpenAIResponsesRawModelStreamEvent : isOpenAIChatCompletionsRawModelStreamEvent;
    expect(events.filter(isRaw).length).toBeGreaterThan(10);
    const text = events.map((e) => (e.type === 'raw_model_stream_event' && e.data.type === 'output_text_delta' ? e.data.delta : '')).join('');
    expect(text).toBe('Order A1 is refunded.');
    const names = events.flatMap((e) => (e.type === 'run_item_stream_event' ? [e.name] : []));
    expect(names).toEqual(['tool_called', 'tool_output', 'handoff_requested', 'handoff_occurred', 'tool_called', 'tool_output', 'message_output_created']);
  });

  it('answers a tool call whose arguments are not JSON with an error the model sees, and carries on', async () => {
    const server = await fakeServer(fakeToolCalls([{ name: 'lookup_order', arguments: '{"orderId": A1', callId: 'call_bad' }]), fakeText('Sorry, retrying.'));
    const provider = new OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: api === 'responses' });
    const { triage, calls } = agents();
    const result = await new Runner({ modelProvider: provider }).run(triage, 'refund A1');
    expect(result.finalOutput).toBe('Sorry, retrying.');
    expect(calls).toEqual([]);
    expect(transcript(server.requests[1]!.body).at(-1)).toMatch(/^output call_bad .*JSON/);
  });

  it('asks for structured output and parses it', async () => {
    const server = await fakeServer(fakeText('{"city":"Lisbon","days":3}'));
    const provider = new OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: api === 'responses' });
    const planner = new Agent({ name: 'Planner', model: 'gpt-4.1', outputType: z.object({ city: z.string(), days: z.number() }) });
    const result = await new Runner({ modelProvider: provider }).run(planner, 'Plan a trip.');
    expect(result.finalOutput).toEqual({ city: 'Lisbon', days: 3 });
    const body = server.requests[0]!.body;
    const format = api === 'responses' ? body.text.format : { type: body.response_format.type, ...body.response_format.json_schema };
    // The reference's format for a plain zod object output type: named `output`, strict (tests/compat strictSchemas.test.ts compares it side by side).
    expect(format).toMatchObject({ type: 'json_schema', name: 'output', strict: true, schema: { type: 'object', required: ['city', 'days'], additionalProperties: false } });
  });
});
