import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, RunState, Runner, Usage, type Model, type ModelRequest, type ModelResponse, type ModelStreamEvent } from '../src/index.js';

/** A stream that sends nothing and ends only when its request is aborted. */
class StallingModel implements Model {
  getResponse(): Promise<ModelResponse> {
    return Promise.reject(new Error('not used'));
  }
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve(), { once: true }));
    const error = new Error('aborted');
    error.name = 'AbortError';
    throw error;
  }
}

async function cancelledDuringFirstModelCall(agent: Agent) {
  const runner = new Runner();
  const streaming = await runner.run(agent, 'hello', { stream: true });
  await new Promise((resolve) => setTimeout(resolve, 20));
  streaming.cancel();
  await streaming._getStreamLoopPromise();
  return { runner, streaming };
}

describe('a turn cancelled during its model call', () => {
  it('is counted once, stays in progress through serialization, and a resumed run takes it again without counting it', async () => {
    const agent = new Agent({ name: 'A', model: new StallingModel() });
    const { runner, streaming } = await cancelledDuringFirstModelCall(agent);
    expect(streaming.currentTurn).toBe(1);
    expect(streaming.state._currentTurn).toBe(1);
    expect(streaming.state._currentTurnInProgress).toBe(true);

    // The same agent, now with a model that answers.
    const answering = agent.clone({ model: new ScriptedModel([{ output: [assistantMessage('resumed')], usage: new Usage() }]) });
    const restored = await RunState.fromString(answering, streaming.state.toString());
    expect(restored._currentTurnInProgress).toBe(true);
    const resumed = await runner.run(answering, restored, { stream: true });
    await resumed.completed;
    expect(resumed.finalOutput).toBe('resumed');
    expect(resumed.currentTurn).toBe(1);
    expect(resumed.state._currentTurn).toBe(1);
    expect(resumed.state._currentTurnInProgress).toBe(false);
  });

  it('fits in maxTurns: the turn taken again is not a turn more', async () => {
    const agent = new Agent({ name: 'A', model: new StallingModel() });
    const { runner, streaming } = await cancelledDuringFirstModelCall(agent);
    const answering = agent.clone({ model: new ScriptedModel([{ output: [assistantMessage('within one turn')], usage: new Usage() }]) });
    const restored = await RunState.fromString(answering, streaming.state.toString());
    const resumed = await runner.run(answering, restored, { maxTurns: 1 });
    expect(resumed.finalOutput).toBe('within one turn');
  });

  it('a finished turn is not in progress in the written state', async () => {
    const agent = new Agent({ name: 'A', model: new ScriptedModel([{ output: [assistantMessage('done')], usage: new Usage() }]) });
    const result = await new Runner().run(agent, 'hi');
    expect(JSON.parse(result.state.toString()).currentTurnInProgress).toBeUndefined();
  });
});
