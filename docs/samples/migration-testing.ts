// Before: '@openai/agents' and the reference's test helpers; after: '@baton/agents' and '@baton/agents/testing'.
import { Agent, run } from '@baton/agents';
import { ScriptedModel, assistantMessage } from '@baton/agents/testing';

const agent = new Agent({ name: 'Assistant', model: new ScriptedModel([[assistantMessage('Hello!')]]) });
console.log((await run(agent, 'Hi')).finalOutput); // Hello!
