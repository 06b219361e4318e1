import { Agent, run } from '@baton/core';
import { notify, streamingTool } from '@baton/streaming';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';

// What the generator yields reaches the stream; only what it returns enters history.
const buildReport = streamingTool({
  name: 'build_report',
  description: 'Builds a report, reporting progress',
  parameters: z.object({ sections: z.number() }),
  async *execute({ sections }) {
    for (let i = 1; i <= sections; i++) yield notify({ pct: Math.round((i / sections) * 100) }, 'progress');
    return `report with ${sections} sections`;
  },
});

const model = new ScriptedModel([[functionCall('build_report', { sections: 2 })], [assistantMessage('Your report is ready.')]]);
const agent = new Agent({ name: 'Writer', model, tools: [buildReport] });

const result = await run(agent, 'Write the report', { stream: true });
for await (const event of result) {
  if (event.type === 'notify_stream_event') console.log(event.toolName, event.data); // build_report { pct: 50 }, then { pct: 100 }
}
await result.completed;
console.log(JSON.stringify(result.history).includes('pct')); // false: progress never enters history
