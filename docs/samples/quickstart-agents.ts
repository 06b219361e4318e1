// Everything in one install, under the names of @openai/agents: OpenAI is the default provider.
import { Agent, run } from '@baton/agents';

const agent = new Agent({ name: 'Assistant', instructions: 'You answer in one sentence.', model: 'gpt-4.1' });
const result = await run(agent, 'Why is the sky blue?');
console.log(result.finalOutput);
