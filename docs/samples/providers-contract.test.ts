// test/echoModel.contract.test.ts — run with vitest: one suite, every case of the provider contract,
// against the local fake vendor servers (OpenAI, Anthropic and Gemini wire formats).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { aisdk } from '@baton/ai-sdk-provider';
import { OpenAIProvider } from '@baton/openai-provider';
import { describeModelContract } from '@baton/testing/contract';

describeModelContract('OpenAI Responses', (server) => new OpenAIProvider({ apiKey: 'test', baseURL: server.baseURL }).getModel('gpt-4.1'));
describeModelContract('aisdk(@ai-sdk/openai-compatible)', (server) =>
  aisdk(createOpenAICompatible({ name: 'local', apiKey: 'test', baseURL: server.baseURL, supportsStructuredOutputs: true, includeUsage: true }).chatModel('gpt-4.1')),
);
