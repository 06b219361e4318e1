import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { UserError, type Model, type ModelProvider } from '@baton/types';
import { Agent, MultiProvider, MultiProviderMap, Runner, run, setDefaultModelProvider, getDefaultModelProvider } from '../src/index.js';

/** A provider that answers every model name with a model saying which vendor and name it got. */
function vendor(label: string, asked: string[]): ModelProvider {
  return {
    getModel(name): Model {
      asked.push(`${label}:${name ?? '(default)'}`);
      return new ScriptedModel([[assistantMessage(`${label} ${name ?? '(default)'}`)]]);
    },
  };
}

describe('MultiProvider', () => {
  it('routes prefixed names to their provider without the prefix, and bare names to the default prefix', async () => {
    const asked: string[] = [];
    const runner = new Runner({
      modelProvider: new MultiProvider({ providerMap: { openai: vendor('openai', asked), anthropic: vendor('anthropic', asked) } }),
    });
    expect((await runner.run(new Agent({ name: 'A', model: 'anthropic/claude-sonnet-4-5' }), 'hi')).finalOutput).toBe('anthropic claude-sonnet-4-5');
    expect((await runner.run(new Agent({ name: 'B', model: 'gpt-4.1' }), 'hi')).finalOutput).toBe('openai gpt-4.1');
    expect((await runner.run(new Agent({ name: 'C', model: 'openai/gpt-4.1-mini' }), 'hi')).finalOutput).toBe('openai gpt-4.1-mini');
    expect(asked).toEqual(['anthropic:claude-sonnet-4-5', 'openai:gpt-4.1', 'openai:gpt-4.1-mini']);
  });

  it('splits at the first slash only, and sends no name when the agent names none', async () => {
    const asked: string[] = [];
    const provider = new MultiProvider({ providerMap: { router: vendor('router', asked), local: vendor('local', asked) }, defaultPrefix: 'local' });
    await provider.getModel('router/meta-llama/llama-3.3-70b');
    await provider.getModel();
    expect(asked).toEqual(['router:meta-llama/llama-3.3-70b', 'local:(default)']);
  });

  it('mixes vendors in one run: a handoff to an agent on another provider', async () => {
    const asked: string[] = [];
    const triageModel = new ScriptedModel([[functionCall('transfer_to_Specialist', {})]]);
    const provider = new MultiProvider({
      providerMap: { openai: { getModel: (name) => (asked.push(`openai:${name}`), triageModel) }, anthropic: vendor('anthropic', asked) },
    });
    const specialist = new Agent({ name: 'Specialist', model: 'anthropic/claude-opus-4' });
    const triage = new Agent({ name: 'Triage', model: 'gpt-4.1-mini', handoffs: [specialist] });
    const result = await new Runner({ modelProvider: provider }).run(triage, 'help');
    expect(result.finalOutput).toBe('anthropic claude-opus-4');
    expect(result.lastAgent?.name).toBe('Specialist');
    expect(asked).toEqual(['openai:gpt-4.1-mini', 'anthropic:claude-opus-4']);
  });

  it('an unknown prefix fails the run with a UserError listing the known ones', async () => {
    const provider = new MultiProvider({ providerMap: { openai: vendor('openai', []), anthropic: vendor('anthropic', []) } });
    const failure = await new Runner({ modelProvider: provider }).run(new Agent({ name: 'A', model: 'gemini/gemini-2.5-pro' }), 'hi').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UserError);
    expect((failure as Error).message).toContain("no provider for the prefix 'gemini'");
    expect((failure as Error).message).toContain("known prefixes: 'openai', 'anthropic'");
  });

  it('a missing default prefix is a UserError that says it is the default', () => {
    const provider = new MultiProvider({ providerMap: { anthropic: vendor('anthropic', []) } });
    expect(() => provider.getModel('gpt-4.1')).toThrow(/no provider for the default prefix 'openai' \(model "gpt-4.1"\); known prefixes: 'anthropic'/);
    expect(() => new MultiProvider().getModel()).toThrow(/none is registered/);
  });

  it('a MultiProviderMap can change after the provider was made', async () => {
    const asked: string[] = [];
    const map = new MultiProviderMap();
    const provider = new MultiProvider({ providerMap: map });
    expect(() => provider.getModel('google/gemini-2.5-flash')).toThrow(UserError);
    map.addProvider('google', vendor('google', asked));
    expect(map.hasPrefix('google')).toBe(true);
    await provider.getModel('google/gemini-2.5-flash');
    map.setMapping(new Map([['openai', vendor('openai', asked)]]));
    expect([...map.getMapping().keys()]).toEqual(['openai']);
    map.removeProvider('openai');
    expect(map.getProvider('openai')).toBeUndefined();
    expect(asked).toEqual(['google:gemini-2.5-flash']);
  });

  it('bad prefixes and providers are UserErrors naming them', () => {
    const map = new MultiProviderMap();
    expect(() => map.addProvider('a/b', vendor('x', []))).toThrow(/a non-empty name without '\/', got "a\/b"/);
    expect(() => map.addProvider('', vendor('x', []))).toThrow(UserError);
    expect(() => map.addProvider('anthropic', {} as ModelProvider)).toThrow(/the provider for prefix 'anthropic' is not a model provider/);
  });

  it('works as the default provider for plain run()', async () => {
    const previous = (() => {
      try {
        return getDefaultModelProvider();
      } catch {
        return undefined;
      }
    })();
    try {
      setDefaultModelProvider(new MultiProvider({ providerMap: { openai: vendor('openai', []), anthropic: vendor('anthropic', []) } }));
      expect((await run(new Agent({ name: 'A', model: 'anthropic/claude-haiku-4-5' }), 'hi')).finalOutput).toBe('anthropic claude-haiku-4-5');
    } finally {
      if (previous) setDefaultModelProvider(previous);
    }
  });
});
