import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, Runner, makeStepRunner, type StepRunner } from '../src/index.js';

// The core README (step boundaries): "An agent tool is not a step itself: its nested run's steps
// are, under `tool:{callId}/` (or the runner's `nested(scope)`, for an engine that runs it as a
// child workflow)". And `makeStepRunner(runStep, nested?)` builds a runner from those two parts.

/** Outer asks Middle (call a1), which asks Inner (call b1); each answers once. */
function nestedAgents() {
  const inner = new Agent({ name: 'Inner', model: new ScriptedModel([[assistantMessage('inner says 42')]]) });
  const middle = new Agent({
    name: 'Middle',
    model: new ScriptedModel([[functionCall('ask_inner', { input: 'q' }, { callId: 'b1' })], [assistantMessage('middle relays')]]),
    tools: [inner.asTool({ toolName: 'ask_inner', toolDescription: 'ask inner' })],
  });
  return new Agent({
    name: 'Outer',
    model: new ScriptedModel([[functionCall('ask_middle', { input: 'q' }, { callId: 'a1' })], [assistantMessage('outer done')]]),
    tools: [middle.asTool({ toolName: 'ask_middle', toolDescription: 'ask middle' })],
  });
}

describe('step runners of nested runs', () => {
  it('without nested(), the keys of agent tools two levels down are prefixed by both calls', async () => {
    const keys: string[] = [];
    const runner = makeStepRunner((step, effect) => Effect.suspend(() => (keys.push(step.key), effect)));
    expect(runner).not.toHaveProperty('nested');
    const result = await new Runner({ stepRunner: runner }).run(nestedAgents(), 'go');
    expect(result.finalOutput).toBe('outer done');
    expect(keys).toEqual([
      'id:run',
      't1:model',
      'tool:a1/id:run',
      'tool:a1/t1:model',
      'tool:a1/tool:b1/id:run',
      'tool:a1/tool:b1/t1:model',
      'tool:a1/t2:model',
      't2:model',
    ]);
  });

  it("with nested(), a nested run's steps go to the runner it returns for the call's scope, with their own keys", async () => {
    const byScope = new Map<string, string[]>();
    const runnerFor = (scope: string): StepRunner =>
      makeStepRunner(
        (step, effect) =>
          Effect.suspend(() => {
            byScope.set(scope, [...(byScope.get(scope) ?? []), step.key]);
            return effect;
          }),
        (inner) => runnerFor(`${scope} > ${inner}`),
      );
    const result = await new Runner({ stepRunner: runnerFor('root') }).run(nestedAgents(), 'go');
    expect(result.finalOutput).toBe('outer done');
    expect(Object.fromEntries(byScope)).toEqual({
      root: ['id:run', 't1:model', 't2:model'],
      'root > tool:a1': ['id:run', 't1:model', 't2:model'],
      'root > tool:a1 > tool:b1': ['id:run', 't1:model'],
    });
  });
});
