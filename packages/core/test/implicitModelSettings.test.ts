import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, Runner, type Model, type ModelProvider } from '../src/index.js';

/** A provider that answers every model name with the same scripted model. */
function providerFor(model: Model): ModelProvider {
  return { getModel: async () => model };
}

describe('an agent without model settings', () => {
  it('gets the defaults of the model the runner resolves, marked as implicit', async () => {
    const model = new ScriptedModel([[assistantMessage('hi')]]);
    await new Runner({ model: 'gpt-5', modelProvider: providerFor(model) }).run(new Agent({ name: 'A' }), 'hello');
    expect(model.calls[0]!.request.modelSettings).toMatchObject({ reasoning: { effort: 'low' }, text: { verbosity: 'low' } });
    expect(model.calls[0]!.request._internal?.reasoningEffortImplicit).toBe(true);
  });

  it('takes a reasoning effort the runner sets as chosen, not implicit', async () => {
    const model = new ScriptedModel([[assistantMessage('hi')]]);
    const runner = new Runner({ model: 'gpt-5', modelProvider: providerFor(model), modelSettings: { reasoning: { effort: 'medium' } } });
    await runner.run(new Agent({ name: 'A' }), 'hello');
    expect(model.calls[0]!.request.modelSettings).toMatchObject({ reasoning: { effort: 'medium' }, text: { verbosity: 'low' } });
    expect(model.calls[0]!.request._internal?.reasoningEffortImplicit).toBe(false);
  });

  it('keeps an agent’s own settings as they are', async () => {
    const model = new ScriptedModel([[assistantMessage('hi')]]);
    await new Runner({ model: 'gpt-5', modelProvider: providerFor(model) }).run(new Agent({ name: 'A', modelSettings: { temperature: 0.2 } }), 'hello');
    expect(model.calls[0]!.request.modelSettings).toEqual({ temperature: 0.2 });
    expect(model.calls[0]!.request._internal?.reasoningEffortImplicit).toBe(false);
  });
});
