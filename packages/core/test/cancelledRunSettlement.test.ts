import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, MemorySession, run, tool } from '../src/index.js';
import { deferred } from './helpers.js';

describe('what a run cancelled between turns leaves behind', () => {
  it('keeps input added with addInput pending when the run is cancelled while the agent prepares its turn', async () => {
    const preparing = deferred();
    const release = deferred();
    let instructionCalls = 0;
    const approve = tool({ name: 'approve_me', description: 'needs approval', parameters: z.object({}), needsApproval: true, execute: async () => 'approved output' });
    const model = new ScriptedModel([[functionCall('approve_me', {}, { callId: 'a1' })], [assistantMessage('done')]]);
    const agent = new Agent({
      name: 'A',
      model,
      tools: [approve],
      instructions: async () => {
        instructionCalls += 1;
        if (instructionCalls > 1) {
          preparing.resolve();
          await release.promise;
        }
        return 'be brief';
      },
    });
    const paused = await run(agent, 'go');
    const state = paused.state;
    state.addInput('added later');
    state.approve(state.getInterruptions()[0]!);

    const streamed = await run(agent, state, { stream: true });
    const reader = streamed.toStream().getReader();
    await preparing.promise;
    const cancelling = reader.cancel('stop');
    release.resolve();
    await cancelling;
    await streamed.completed;

    expect(model.calls).toHaveLength(1);
    expect(state.pendingInput).toEqual([{ type: 'message', role: 'user', content: 'added later' }]);
    const resumed = await run(agent, state);
    expect(resumed.finalOutput).toBe('done');
    expect(JSON.stringify(model.calls[1]!.request.input)).toContain('added later');
  });

  it('saves to the session the tool outputs a cancelled run drained, not a call without its output', async () => {
    const started = deferred();
    const session = new MemorySession();
    const slow = tool({
      name: 'slow',
      description: 'ends when cancelled',
      parameters: z.object({}),
      execute: async (_input, _context, details) => {
        started.resolve();
        await new Promise<void>((resolve) => details.signal.addEventListener('abort', () => resolve(), { once: true }));
        return 'stopped cleanly';
      },
    });
    const model = new ScriptedModel([[functionCall('slow', {}, { callId: 's1' })], [assistantMessage('never asked')]]);
    const agent = new Agent({ name: 'A', model, tools: [slow] });
    const controller = new AbortController();
    const cancelled = run(agent, 'go', { session, signal: controller.signal }).catch((error: unknown) => error);
    await started.promise;
    controller.abort(new Error('stop'));
    expect(await cancelled).toEqual(new Error('stop'));
    const saved = (await session.getItems()).map((item) => [item.type, 'callId' in item ? item.callId : undefined]);
    expect(saved).toEqual([
      ['message', undefined],
      ['function_call', 's1'],
      ['function_call_result', 's1'],
    ]);
  });

  it.each([
    ['an agent whose turn answers are known at once', () => new Agent({ name: 'A', instructions: 'Be brief.' })],
    ['an agent whose instructions are a function', () => new Agent({ name: 'A', instructions: async () => 'Be brief.' })],
  ])('a streamed run whose signal aborted before it started never asks the model: %s', async (_label, make) => {
    const model = new ScriptedModel([[assistantMessage('never')]]);
    const agent = make().clone({ model });
    const session = new MemorySession();
    const controller = new AbortController();
    controller.abort(new Error('cancelled before the start'));
    const ended: string[] = [];
    agent.on('agent_end', () => ended.push('agent_end'));
    const streamed = await run(agent, 'hello', { stream: true, signal: controller.signal, session });
    await streamed.completed;
    expect(streamed.cancelled).toBe(true);
    expect(model.calls).toHaveLength(0);
    expect(ended).toEqual([]);
    expect(await session.getItems()).toEqual([]);
  });
});
