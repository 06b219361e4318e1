import { Agent, run, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';

const getWeather = tool({
  name: 'get_weather',
  description: 'Get the weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: sunny, 21°C`,
});

// Offline: a scripted model plays two turns (a tool call, then the answer).
// In production, pass a model name with a provider, or a Model instance (see "Providers").
const model = new ScriptedModel([[functionCall('get_weather', { city: 'Lisbon' })], [assistantMessage('Lisbon is sunny, 21°C.')]]);
const agent = new Agent({ name: 'Weather', instructions: 'Answer briefly.', model, tools: [getWeather] });

const result = await run(agent, 'What is the weather in Lisbon?');
console.log(result.finalOutput); // Lisbon is sunny, 21°C.
console.log(result.newItems.map((item) => item.type)); // [ 'tool_call_item', 'tool_call_output_item', 'message_output_item' ]
