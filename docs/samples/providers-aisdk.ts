import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { aisdk } from '@baton/ai-sdk-provider';
import { Agent, run } from '@baton/core';
import { FakeOpenAIServer, fakeText } from '@baton/testing';

// Offline: a local OpenAI-compatible server. With a real vendor it is, say,
// `aisdk(anthropic('claude-sonnet-4-5'))` from `@ai-sdk/anthropic` (reads ANTHROPIC_API_KEY).
const server = await FakeOpenAIServer.start({ turns: [fakeText('Hello from another vendor.')] });
const model = aisdk(createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'x' }).chatModel('my-model'));

const agent = new Agent({ name: 'Assistant', instructions: 'Answer briefly.', model });
const result = await run(agent, 'Hello?');
console.log(result.finalOutput); // Hello from another vendor.
await server.close();
