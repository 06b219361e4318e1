import { Agent, run } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';

// An agent used as a tool: the orchestrator keeps the conversation, the translator answers one call.
const translator = new Agent({
  name: 'Translator',
  instructions: 'Translate the text to French.',
  model: new ScriptedModel([[assistantMessage('Bonjour')]]),
});

const orchestrator = new Agent({
  name: 'Orchestrator',
  model: new ScriptedModel([[functionCall('translate', { input: 'Hello' })], [assistantMessage('In French: Bonjour')]]),
  tools: [translator.asTool({ toolName: 'translate', toolDescription: 'Translate text to French' })],
});

const result = await run(orchestrator, 'Say hello in French');
console.log(result.finalOutput); // In French: Bonjour
