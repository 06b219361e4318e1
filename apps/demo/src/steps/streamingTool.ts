import { Agent, type RunStreamEvent } from '@baton/core';
import { unwrapStreamingToolContext } from '@baton/streaming';
import { fakeText, fakeToolCalls } from '@baton/testing';
import type { Backend } from '../backend.js';
import { say, since, stepHeader, type Log } from '../log.js';
import { lookupOrder } from '../orders.js';

export interface StreamingToolFacts {
  /** Nested events the parent stream carried (as `streaming_tool_context_event`). */
  readonly innerEvents: number;
  readonly innerTextDeltas: number;
  readonly firstInnerDeltaAtMs: number | undefined;
  readonly toolEndedAtMs: number | undefined;
  readonly historyLength: number;
  readonly historyTypes: string[];
  /** Whether anything of the nested run other than its final output is in the parent's history. */
  readonly innerItemsInHistory: number;
}

/**
 * Step 3: an agent used as a streaming tool. Its progress (its own tool call, its text as it is
 * written) reaches the parent's stream live, wrapped; only its final answer enters the parent's history.
 */
export async function streamingToolStep(backend: Backend, log: Log): Promise<StreamingToolFacts> {
  stepHeader(log, 3, 'A streaming tool: nested progress, live, kept out of history', 'the researcher\'s tool call and words appear while it works (│ lines), yet the parent\'s history holds only the tool\'s result.');
  backend.script(
    'openai',
    fakeToolCalls([{ name: 'research_order', arguments: { input: 'What happened to order A-17?' } }]),
    fakeToolCalls([{ name: 'lookup_order', arguments: { orderId: 'A-17' } }]),
    fakeText('Order A-17 (espresso machine, EUR 42) was delivered two days ago and arrived broken.', { stream: { deltaChunks: 6, eventDelayMs: 40 } }),
    fakeText('Your espresso machine from order A-17 arrived broken; a refund of EUR 42 is the next step.'),
  );
  const researcher = new Agent({
    name: 'Researcher',
    instructions: 'Look the order up and report what happened in one sentence.',
    model: backend.openaiModel,
    tools: [lookupOrder],
  });
  const support = new Agent({
    name: 'Support',
    instructions: 'Use research_order to find out what happened, then answer the customer in one sentence.',
    model: backend.openaiModel,
    tools: [researcher.asTool({ toolName: 'research_order', toolDescription: 'Research an order.', streaming: true })],
  });

  const start = performance.now();
  let innerEvents = 0;
  let innerTextDeltas = 0;
  let firstInnerDeltaAtMs: number | undefined;
  let toolEndedAtMs: number | undefined;
  let midLine = false;
  const endLine = () => midLine && (log('\n'), (midLine = false));
  const result = await backend.runner.run(support, 'What happened to my order A-17?', { stream: true });
  for await (const event of result) {
    if (event.type === 'tool_stream_end_event') toolEndedAtMs = since(start);
    if (event.type !== 'streaming_tool_context_event') continue;
    innerEvents++;
    const { path, event: inner } = unwrapStreamingToolContext<RunStreamEvent>(event);
    const tag = `   │ ${path.map((p) => p.toolName).join(' › ')}`;
    if (inner.type === 'raw_model_stream_event' && inner.data.type === 'output_text_delta') {
      innerTextDeltas++;
      firstInnerDeltaAtMs ??= since(start);
      if (!midLine) log(`${tag} writes: `);
      log(inner.data.delta);
      midLine = true;
    } else if (inner.type === 'run_item_stream_event' && inner.item.type === 'tool_call_item' && inner.name === 'tool_called') {
      endLine();
      const call = inner.item.rawItem as { name?: string; arguments?: string };
      log(`${tag} calls ${call.name}(${call.arguments})\n`);
    }
  }
  await result.completed;
  endLine();

  const history = result.history;
  const historyTypes = history.map((item) => ('role' in item && item.type === 'message' ? `${item.type}:${item.role}` : String(item.type)));
  const innerItemsInHistory = history.filter((item) => JSON.stringify(item).includes('lookup_order')).length;
  say(log, `Support: "${result.finalOutput}"`);
  say(log, `${innerEvents} nested events streamed (${innerTextDeltas} text deltas, the first at ${firstInnerDeltaAtMs} ms; the tool returned at ${toolEndedAtMs} ms)`);
  say(log, `parent history: ${history.length} items [${historyTypes.join(', ')}]; nested items in it: ${innerItemsInHistory}`);
  return { innerEvents, innerTextDeltas, firstInnerDeltaAtMs, toolEndedAtMs, historyLength: history.length, historyTypes, innerItemsInHistory };
}
