import { Agent, run } from '@baton/core';
import { unwrapStreamingToolContext } from '@baton/streaming';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';

// An agent used as a streaming tool: its events reach the parent's stream, wrapped, and never its history.
const researcher = new Agent({ name: 'Researcher', model: new ScriptedModel([[assistantMessage('Three sources agree.')]]) });
const lead = new Agent({
  name: 'Lead',
  model: new ScriptedModel([[functionCall('research', { input: 'Is the bridge open?' })], [assistantMessage('Yes, the bridge is open.')]]),
  tools: [researcher.asTool({ toolName: 'research', toolDescription: 'Research a question', streaming: true })],
});

const result = await run(lead, 'Is the bridge open?', { stream: true });
for await (const event of result) {
  if (event.type === 'streaming_tool_context_event') {
    const { path, event: inner } = unwrapStreamingToolContext(event);
    console.log(path.map((frame) => frame.toolName).join(' > '), inner.type); // research raw_model_stream_event ... research run_item_stream_event
  }
}
await result.completed;
console.log(result.finalOutput); // Yes, the bridge is open.
