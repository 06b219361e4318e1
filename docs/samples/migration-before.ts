// Before: import { Agent, run, tool } from '@openai/agents';
import { Agent, run, tool } from '@baton/agents';
import { z } from 'zod';

const getWeather = tool({
  name: 'get_weather',
  description: 'Get the weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `The weather in ${city} is sunny`,
});

const agent = new Agent({ name: 'Weather', instructions: 'Answer briefly.', model: 'gpt-4.1', tools: [getWeather] });
const result = await run(agent, 'What is the weather in Tokyo?');
console.log(result.finalOutput);
