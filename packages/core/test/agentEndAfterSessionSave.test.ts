import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentInputItem } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, MemorySession, Runner, tool } from '../src/index.js';

// agent_end means the run's answer is in its session: it is heard only once the save succeeded
// (as on the reference), and a failed save ends the run with that failure and no agent_end.

class FailingSession extends MemorySession {
  override async addItems(_items: AgentInputItem[]): Promise<void> {
    throw new Error('session save failed');
  }
}

type Source = 'the model' | 'an errorHandlers.maxTurns answer';

function setup(source: Source) {
  const lookup = tool({ name: 'lookup', description: 'l', parameters: z.object({}), execute: () => 'found' });
  const model = new ScriptedModel(source === 'the model' ? [[assistantMessage('the answer')]] : [[functionCall('lookup', {})]]);
  const agent = new Agent({ name: 'A', model, tools: [lookup] });
  const runner = new Runner();
  const heard: string[] = [];
  runner.on('agent_end', () => void heard.push('runner'));
  agent.on('agent_end', () => void heard.push('agent'));
  const options = source === 'the model' ? {} : { maxTurns: 1, errorHandlers: { maxTurns: () => ({ finalOutput: 'handled' }) } };
  return { agent, runner, heard, options };
}

async function runToEnd(runner: Runner, agent: Agent<any, any>, options: object, stream: boolean): Promise<unknown> {
  if (!stream) return runner.run(agent, 'go', options);
  const result = await runner.run(agent, 'go', { ...options, stream: true });
  for await (const _event of result);
  await result.completed;
  return result;
}

describe('agent_end is heard only once the run is in its session', () => {
  const cases: Array<[Source, boolean]> = [
    ['the model', false],
    ['the model', true],
    ['an errorHandlers.maxTurns answer', false],
    ['an errorHandlers.maxTurns answer', true],
  ];

  it.each(cases)('a failed save of an answer from %s (streamed: %s) ends the run with it, and no agent_end', async (source, stream) => {
    const { agent, runner, heard, options } = setup(source);
    await expect(runToEnd(runner, agent, { ...options, session: new FailingSession() }, stream)).rejects.toThrow('session save failed');
    expect(heard).toEqual([]);
  });

  it.each(cases)('an answer from %s (streamed: %s) is in the session when agent_end is heard', async (source, stream) => {
    const { agent, runner, heard, options } = setup(source);
    const session = new MemorySession();
    const savedWhenHeard: number[] = [];
    agent.on('agent_end', () => void session.getItems().then((items) => savedWhenHeard.push(items.length)));
    await runToEnd(runner, agent, { ...options, session }, stream);
    await Promise.resolve();
    expect([...heard].sort()).toEqual(['agent', 'runner']);
    const items = await session.getItems();
    expect(items.length).toBeGreaterThan(1);
    expect(savedWhenHeard).toEqual([items.length]);
  });
});
