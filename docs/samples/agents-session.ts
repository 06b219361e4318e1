import { Agent, MemorySession, run } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';

// A session keeps the conversation between runs (MemorySession here; OpenAIConversationsSession
// in @baton/openai-provider keeps it on OpenAI's side).
const model = new ScriptedModel([[assistantMessage('Nice to meet you, Ada.')], [assistantMessage('Your name is Ada.')]]);
const agent = new Agent({ name: 'Assistant', model });
const session = new MemorySession();

await run(agent, 'My name is Ada.', { session });
const second = await run(agent, 'What is my name?', { session });
console.log(second.finalOutput); // Your name is Ada.
console.log((await session.getItems()).length); // 4: two user messages, two answers
