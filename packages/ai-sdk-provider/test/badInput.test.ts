import { describe, expect, it } from 'vitest';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAnthropic as createAnthropicV3 } from '@ai-sdk/anthropic-v3';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { Agent, MultiProvider, Runner } from '@baton/core';
import { UserError } from '@baton/types';
import { aisdk, AiSdkModel, aisdkProvider, aisdkProviderTool, type AiSdkLanguageModel } from '../src/index.js';
import { v3Generate, v3Model, v4Generate, v4Model } from './helpers.js';

function userErrorOf(make: () => unknown): UserError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error('expected a UserError');
}

describe('aisdk() with something that is not an AI SDK v3 / v4 language model', () => {
  const fns: Record<string, () => undefined> = { doGenerate: () => undefined, doStream: () => undefined };
  it.each([
    ['a string (a model id)', 'gpt-4o', /received a value of typeof 'string' \(the string "gpt-4o": pass a model object/],
    ['undefined', undefined, /received a value of typeof 'undefined'/],
    ['null', null, /received null/],
    ['a number', 42, /typeof 'number'/],
    ['an object without doGenerate / doStream', { provider: 'x', modelId: 'm' }, /from provider 'x' with neither doGenerate nor doStream/],
    ['a Baton model', { getResponse: () => undefined, getStreamedResponse: () => undefined }, /looks like a Baton Model already/],
    ['a v1 model', { specificationVersion: 'v1', provider: 'old', modelId: 'm', ...fns }, /Unsupported AI SDK specificationVersion: v1\. Only v2, v3, and v4 are supported.*from provider 'old'/],
    ['a v5 model', { specificationVersion: 'v5', provider: 'new', modelId: 'm', ...fns }, /Unsupported AI SDK specificationVersion: v5\. Only v2, v3, and v4 are supported/],
    ['a v3 model without provider', { specificationVersion: 'v3', modelId: 'm', ...fns }, /has no string provider/],
  ])('%s', (_name, value, message) => {
    expect(userErrorOf(() => aisdk(value as unknown as AiSdkLanguageModel)).message).toMatch(message);
  });

  it('accepts hand-written v4 and v3 models and reports what they are', () => {
    const v4 = aisdk(v4Model([], { provider: 'acme.chat', modelId: 'acme-1' }));
    expect(v4).toBeInstanceOf(AiSdkModel);
    expect([v4.specificationVersion, v4.provider, v4.modelId, v4.modelName, v4.traceSpanType]).toEqual(['v4', 'acme.chat', 'acme-1', 'acme-1', 'generation']);
    expect(aisdk(v3Model([])).specificationVersion).toBe('v3');
  });
});

describe('real provider packages', () => {
  it('their models and providers are accepted as they are (v4 and v3)', () => {
    expect(aisdk(createAnthropic({ apiKey: 'x' })('claude-sonnet-4-5')).specificationVersion).toBe('v4');
    expect(aisdk(createAnthropicV3({ apiKey: 'x' })('claude-sonnet-4-5')).specificationVersion).toBe('v3');
    expect(aisdkProvider(createGoogleGenerativeAI({ apiKey: 'x' })).getModel('gemini-2.5-flash')).toMatchObject({ provider: 'google.generative-ai', modelId: 'gemini-2.5-flash' });
    expect(aisdkProvider(createAnthropicV3({ apiKey: 'x' })).getModel('claude-haiku-4-5').specificationVersion).toBe('v3');
  });
});

describe('aisdkProviderTool()', () => {
  it.each([
    ['not a provider tool', { type: 'function', id: 'a.b' }, /expects an AI SDK provider tool/],
    ['an id without a provider', { type: 'provider', id: 'web_search' }, /must look like '<provider>\.<tool>'/],
  ])('%s is a UserError', (_name, value, message) => {
    expect(userErrorOf(() => aisdkProviderTool(value as never)).message).toMatch(message);
  });

  it('names the tool after the id unless told otherwise', () => {
    expect(aisdkProviderTool({ type: 'provider', id: 'google.code_execution', args: {} })).toEqual({
      type: 'hosted_tool',
      name: 'code_execution',
      providerData: { aiSdkProviderTool: { id: 'google.code_execution', args: {} } },
    });
  });
});

describe('aisdkProvider()', () => {
  it('resolves model names through languageModel(id), one model per name, for a Runner', async () => {
    const asked: string[] = [];
    const provider = aisdkProvider({
      languageModel: (id: string) => {
        asked.push(id);
        return v4Model([v4Generate([{ type: 'text', text: `I am ${id}` }])], { modelId: id });
      },
    });
    const runner = new Runner({ modelProvider: provider });
    const result = await runner.run(new Agent({ name: 'A', model: 'acme-large' }), 'who?');
    expect(result.finalOutput).toBe('I am acme-large');
    expect(provider.getModel('acme-large')).toBe(provider.getModel('acme-large'));
    expect(asked).toEqual(['acme-large']);
  });

  it('takes a function from id to model (a v3 provider here) and a default model', () => {
    const provider = aisdkProvider((id: string) => v3Model([v3Generate([])], { modelId: id }), { defaultModel: 'small' });
    expect(provider.getModel()).toMatchObject({ modelId: 'small', specificationVersion: 'v3' });
  });

  it('works in a prefix map (MultiProvider)', async () => {
    const multi = new MultiProvider({ providerMap: { acme: aisdkProvider((id: string) => v4Model([], { modelId: id })) } });
    expect(await multi.getModel('acme/acme-large')).toMatchObject({ modelId: 'acme-large' });
    const runner = new Runner({ modelProvider: multi });
    const agent = new Agent({ name: 'A', model: 'acme/echo' });
    await expect(runner.run(agent, 'x')).rejects.toThrow(/no turn left/);
  });

  it('is a UserError for something that is not a provider, a resolver that returns no model, or no name', () => {
    expect(userErrorOf(() => aisdkProvider('anthropic' as never)).message).toMatch(/expects an AI SDK provider.*received a value of typeof 'string'/);
    expect(userErrorOf(() => aisdkProvider(() => ({ specificationVersion: 'v1' }) as never).getModel('x')).message).toMatch(
      /Unsupported AI SDK specificationVersion: v1\. Only v2, v3, and v4 are supported\. \(aisdkProvider\(\): the language model for 'x' received it/,
    );
    expect(userErrorOf(() => aisdkProvider(() => v4Model([])).getModel()).message).toMatch(/no model name was given/);
  });
});
