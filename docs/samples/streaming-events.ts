import { Agent, run } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';

const agent = new Agent({ name: 'Poet', model: new ScriptedModel([[assistantMessage('Roses are red.')]]) });

// `stream: true` returns a StreamedRunResult: iterate its events as they happen.
const result = await run(agent, 'Write a poem', { stream: true });
for await (const event of result) {
  if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') process.stdout.write(event.data.delta);
  if (event.type === 'run_item_stream_event') console.log(`\n[${event.name}]`); // [message_output_created]
}
await result.completed; // resolves when the run ends (rejects if it failed)
console.log(result.finalOutput); // Roses are red.

// Only the text: a ReadableStream of deltas.
const again = await run(new Agent({ name: 'Poet', model: new ScriptedModel([[assistantMessage('Violets are blue.')]]) }), 'More', { stream: true });
for await (const chunk of again.toTextStream()) process.stdout.write(chunk); // Violets are blue.
await again.completed;
