import { Agent, Runner } from '@baton/core';
import { OpenAIProvider } from '@baton/openai-provider';

// Reads OPENAI_API_KEY (and OPENAI_BASE_URL) when the first model is needed.
const runner = new Runner({ modelProvider: new OpenAIProvider() });
const agent = new Agent({ name: 'Assistant', instructions: 'You answer in one sentence.', model: 'gpt-4.1' });

const result = await runner.run(agent, 'Why is the sky blue?');
console.log(result.finalOutput);
