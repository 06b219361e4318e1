import { Agent, Runner, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { addTraceProcessor, withCustomSpan, withTrace, type Span, type TracingProcessor } from '@baton/tracing';
import { z } from 'zod';

// A processor that records each span as it ends (the OpenAI exporter implements the same interface).
const ended: string[] = [];
const printer: TracingProcessor = {
  async onTraceStart() {},
  async onTraceEnd() {},
  async onSpanStart() {},
  async onSpanEnd(span: Span<any>) {
    ended.push(span.spanData.type);
  },
  async shutdown() {},
  async forceFlush() {},
};
addTraceProcessor(printer);

const lookup = tool({
  name: 'lookup_order',
  description: 'Find an order.',
  parameters: z.object({ id: z.string() }),
  // Inside a tool, its span is current: custom spans nest under it.
  execute: ({ id }) => withCustomSpan(async () => `order ${id}: shipped`, { data: { name: 'db', data: { id } } }),
});
const model = new ScriptedModel([[functionCall('lookup_order', { id: 'A1' })], [assistantMessage('It shipped.')]]);
const agent = new Agent({ name: 'Support', model, tools: [lookup] });

// Runs inside withTrace share one trace.
await withTrace('Support session', async () => {
  await new Runner({ workflowName: 'support' }).run(agent, 'Where is A1?');
});
await new Promise((resolve) => setTimeout(resolve, 10));
console.log(ended.join(', ')); // generation, custom, function, turn, generation, turn, agent, task
