import { createAnthropic } from '@ai-sdk/anthropic';
import { createAnthropic as createAnthropicV2 } from '@ai-sdk/anthropic-v2';
import { createAnthropic as createAnthropicV3 } from '@ai-sdk/anthropic-v3';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { describeModelContract } from '@baton/testing/contract';
import { aisdk } from '../src/index.js';

// The provider contract, on real AI SDK provider packages from the registry, each talking real
// HTTP to the local server in its vendor's wire format.
const key = { apiKey: 'test-key' };

// Anthropic's and Gemini's JSON answers carry tool arguments as an object, so arguments that are
// not JSON can only arrive streamed (as Anthropic's input_json_delta or Gemini's args text).
const objectArguments = { skip: ['malformed tool arguments/plain'] };

describeModelContract('aisdk(@ai-sdk/anthropic, spec v4)', (server) => aisdk(createAnthropic({ ...key, baseURL: server.anthropicBaseURL })('claude-sonnet-4-5')), objectArguments);
describeModelContract('aisdk(@ai-sdk/anthropic@3, spec v3)', (server) => aisdk(createAnthropicV3({ ...key, baseURL: server.anthropicBaseURL })('claude-sonnet-4-5')), objectArguments);
describeModelContract('aisdk(@ai-sdk/anthropic@2, spec v2)', (server) => aisdk(createAnthropicV2({ ...key, baseURL: server.anthropicBaseURL })('claude-sonnet-4-5')), objectArguments);
describeModelContract('aisdk(@ai-sdk/google, spec v4)', (server) => aisdk(createGoogleGenerativeAI({ ...key, baseURL: server.googleBaseURL })('gemini-2.5-flash')), objectArguments);
// As a user would set it up for a server with structured outputs and streamed usage.
describeModelContract('aisdk(@ai-sdk/openai-compatible, spec v4)', (server) =>
  aisdk(createOpenAICompatible({ ...key, name: 'local', baseURL: server.baseURL, supportsStructuredOutputs: true, includeUsage: true }).chatModel('gpt-4.1')),
);
