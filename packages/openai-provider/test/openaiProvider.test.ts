import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeText } from '@baton/testing';
import { UserError } from '@baton/types';
import {
  DEFAULT_OPENAI_MODEL,
  OpenAIChatCompletionsModel,
  OpenAIProvider,
  OpenAIResponsesModel,
  getDefaultOpenAIClient,
  getDefaultOpenAIKey,
  setDefaultOpenAIClient,
  setDefaultOpenAIKey,
  setOpenAIAPI,
} from '../src/index.js';
import { resetOpenAIDefaults } from '../src/defaults.js';
import { clientFor, fakeServer, request } from './helpers.js';

afterEach(() => {
  vi.unstubAllEnvs();
  resetOpenAIDefaults();
});

function clearEnv(): void {
  for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_DEFAULT_MODEL', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID']) vi.stubEnv(name, '');
}

describe('OpenAIProvider', () => {
  it('makes Responses models by default and Chat Completions models with useResponses: false', async () => {
    const server = await fakeServer();
    expect(new OpenAIProvider({ apiKey: 'k', baseURL: server.baseURL }).getModel('gpt-4.1')).toBeInstanceOf(OpenAIResponsesModel);
    expect(new OpenAIProvider({ apiKey: 'k', baseURL: server.baseURL, useResponses: false }).getModel('gpt-4.1')).toBeInstanceOf(OpenAIChatCompletionsModel);
  });

  it('follows setOpenAIAPI when useResponses is not given', async () => {
    const server = await fakeServer();
    const provider = new OpenAIProvider({ apiKey: 'k', baseURL: server.baseURL });
    setOpenAIAPI('chat_completions');
    expect(provider.getModel('gpt-4.1')).toBeInstanceOf(OpenAIChatCompletionsModel);
    setOpenAIAPI('responses');
    expect(provider.getModel('gpt-4.1')).toBeInstanceOf(OpenAIResponsesModel);
    expect(() => setOpenAIAPI('grpc' as never)).toThrow(UserError);
  });

  it('keeps one model object per name', async () => {
    const server = await fakeServer();
    const provider = new OpenAIProvider({ apiKey: 'k', baseURL: server.baseURL });
    expect(provider.getModel('gpt-4.1')).toBe(provider.getModel('gpt-4.1'));
    expect(provider.getModel('gpt-4.1')).not.toBe(provider.getModel('gpt-4o'));
    expect((provider.getModel('gpt-4o') as OpenAIResponsesModel).model).toBe('gpt-4o');
  });

  it('uses OPENAI_DEFAULT_MODEL, else DEFAULT_OPENAI_MODEL, when no name is given', async () => {
    clearEnv();
    const server = await fakeServer();
    const provider = new OpenAIProvider({ apiKey: 'k', baseURL: server.baseURL });
    expect((provider.getModel() as OpenAIResponsesModel).model).toBe(DEFAULT_OPENAI_MODEL);
    vi.stubEnv('OPENAI_DEFAULT_MODEL', 'GPT-4o-mini');
    expect((provider.getModel('') as OpenAIResponsesModel).model).toBe('gpt-4o-mini');
  });

  it('reads OPENAI_API_KEY and OPENAI_BASE_URL when the first model is made, not when it is constructed', async () => {
    clearEnv();
    const server = await fakeServer(fakeText('from env'));
    const provider = new OpenAIProvider();
    vi.stubEnv('OPENAI_API_KEY', 'sk-env');
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
    const response = await provider.getModel('gpt-4.1').getResponse(request());
    expect(response.output[0]).toMatchObject({ content: [{ text: 'from env' }] });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-env');
  });

  it('sends organization and project headers, and its options win over the environment', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env');
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    const server = await fakeServer(fakeText('ok'));
    const provider = new OpenAIProvider({ apiKey: 'sk-opt', baseURL: server.baseURL, organization: 'org_1', project: 'proj_1' });
    await provider.getModel('gpt-4.1').getResponse(request());
    expect(server.requests[0]!.headers).toMatchObject({ authorization: 'Bearer sk-opt', 'openai-organization': 'org_1', 'openai-project': 'proj_1' });
  });

  it('setDefaultOpenAIKey wins over OPENAI_API_KEY', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env');
    expect(getDefaultOpenAIKey()).toBe('sk-env');
    setDefaultOpenAIKey('sk-set');
    const server = await fakeServer(fakeText('ok'));
    await new OpenAIProvider({ baseURL: server.baseURL }).getModel('gpt-4.1').getResponse(request());
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-set');
    expect(() => setDefaultOpenAIKey('')).toThrow(UserError);
  });

  it('uses a given client as it is, and the default client when it has no client options', async () => {
    const server = await fakeServer(fakeText('one'), fakeText('two'));
    const client = clientFor(server);
    await new OpenAIProvider({ openAIClient: client, useResponses: false }).getModel('m').getResponse(request());
    setDefaultOpenAIClient(client);
    await new OpenAIProvider().getModel('m').getResponse(request());
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/responses']);
    expect(() => setDefaultOpenAIClient('client' as never)).toThrow(UserError);
    setDefaultOpenAIClient(undefined);
    expect(getDefaultOpenAIClient()).toBeUndefined();
  });

  it('rejects a client together with client options', () => {
    expect(() => new OpenAIProvider({ openAIClient: {} as never, apiKey: 'k' })).toThrow('Cannot provide both apiKey and openAIClient');
    expect(() => new OpenAIProvider({ openAIClient: {} as never, organization: '' })).toThrow('Cannot provide both organization and openAIClient');
    expect(() => new OpenAIProvider({ openAIClient: {} as never, project: 'p' })).toThrow('Cannot provide both project and openAIClient');
    expect(() => new OpenAIProvider({ useResponses: 'yes' as never })).toThrow(UserError);
  });

  it('without any API key, getModel fails with a UserError that says what to set', () => {
    clearEnv();
    expect(() => new OpenAIProvider().getModel('gpt-4.1')).toThrow(/No OpenAI API key: set OPENAI_API_KEY/);
  });
});
