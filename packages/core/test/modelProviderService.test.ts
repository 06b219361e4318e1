import { Effect, Layer } from 'effect';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import type { Model, ModelProvider } from '@baton/types';
import { Agent, ModelProviderService, Runner } from '../src/index.js';

// The model provider as an Effect service: runEffect resolves model names with the provided one
// (Runner config first), and nested agent-tool runs use it too.

function providerOf(models: Record<string, Model>, asked: string[]): ModelProvider {
  return {
    getModel(name) {
      asked.push(name ?? '(default)');
      const model = name === undefined ? undefined : models[name];
      if (!model) throw new Error(`no model ${name}`);
      return model;
    },
  };
}

describe('ModelProviderService', () => {
  it('runEffect resolves model names with a provider given as a layer', async () => {
    const asked: string[] = [];
    const provider = providerOf({ 'house-model': new ScriptedModel([[assistantMessage('from the layer')]]) }, asked);
    const program = new Runner().runEffect(new Agent({ name: 'A', model: 'house-model' }), 'hi').pipe(Effect.provide(Layer.succeed(ModelProviderService, provider)));
    const result = await Effect.runPromise(program as Effect.Effect<{ finalOutput: unknown }, unknown>);
    expect(result.finalOutput).toBe('from the layer');
    expect(asked).toEqual(['house-model']);
  });

  it('nested agent-tool runs use the same provider', async () => {
    const asked: string[] = [];
    const provider = providerOf(
      {
        outer: new ScriptedModel([[functionCall('helper', { input: 'help' })], [assistantMessage('done')]]),
        inner: new ScriptedModel([[assistantMessage('helped')]]),
      },
      asked,
    );
    const helper = new Agent({ name: 'Helper', model: 'inner' }).asTool({ toolName: 'helper', toolDescription: 'helps' });
    const program = new Runner().runEffect(new Agent({ name: 'Main', model: 'outer', tools: [helper] }), 'go').pipe(Effect.provideService(ModelProviderService, provider));
    const result = await Effect.runPromise(program as Effect.Effect<{ finalOutput: unknown }, unknown>);
    expect(result.finalOutput).toBe('done');
    expect(asked).toEqual(['outer', 'inner', 'outer']);
  });

  it('a Runner’s own modelProvider wins over the service', async () => {
    const fromService: string[] = [];
    const fromRunner: string[] = [];
    const service = providerOf({}, fromService);
    const runner = new Runner({ modelProvider: providerOf({ m: new ScriptedModel([[assistantMessage('runner')]]) }, fromRunner) });
    const program = runner.runEffect(new Agent({ name: 'A', model: 'm' }), 'hi').pipe(Effect.provideService(ModelProviderService, service));
    const result = await Effect.runPromise(program as Effect.Effect<{ finalOutput: unknown }, unknown>);
    expect(result.finalOutput).toBe('runner');
    expect([fromRunner, fromService]).toEqual([['m'], []]);
  });

  it('runs started inside a run (an Effect guardrail running a checker agent) resolve names with the run’s provider', async () => {
    const asked: string[] = [];
    const provider = providerOf(
      { main: new ScriptedModel([[assistantMessage('answer')]]), checker: new ScriptedModel([[assistantMessage('fine')]]) },
      asked,
    );
    const checker = new Agent({ name: 'Checker', model: 'checker' });
    const agent = new Agent({
      name: 'Main',
      model: 'main',
      inputGuardrails: [
        {
          name: 'checked by an agent',
          // A fresh Runner with no provider of its own, as guardrail helpers make. (An Effect is what
          // @baton/guardrails' guardrailFromAgent returns; core's public type names the Promise form.)
          execute: (() =>
            new Runner()
              .runEffect(checker, 'check this')
              .pipe(Effect.map((checked) => ({ tripwireTriggered: checked.finalOutput !== 'fine', outputInfo: null })))) as never,
        },
      ],
    });
    const result = await new Runner({ modelProvider: provider }).run(agent, 'hi');
    expect(result.finalOutput).toBe('answer');
    expect([...asked].sort()).toEqual(['checker', 'main']);
  });
});
