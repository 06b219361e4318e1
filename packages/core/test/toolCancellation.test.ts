import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelStream } from '@baton/testing';
import { Agent, Handoff, MemorySession, RunState, RunContext, Runner, run, tool } from '../src/index.js';
import { deferred, functionCallOutputs } from './helpers.js';

/** Waits until `signal` fires, then throws as fetch and timers do (an AbortError). */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(Object.assign(new Error('aborted by signal'), { name: 'AbortError' }));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

describe('cancelling a run while its tools run', () => {
  it('hands a lone call the run’s own signal, waits for it to finish, keeps its output, and rejects with the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('caller stopped');
    const started = deferred();
    const release = deferred();
    let seen: AbortSignal | undefined;
    const cleanup = tool({
      name: 'cleanup',
      description: 'finishes its work after the abort',
      parameters: z.object({}),
      execute: async (_input, _context, details) => {
        seen = details.signal;
        started.resolve();
        await release.promise;
        return 'cleaned up';
      },
    });
    const model = new ScriptedModel([[functionCall('cleanup', {}, { callId: 'c1' })], [assistantMessage('never asked')]]);
    const agent = new Agent({ name: 'A', model, tools: [cleanup] });
    const state = new RunState(new RunContext(), 'go', agent, 10);
    let settled = false;
    const outcome = run(agent, state, { signal: controller.signal }).then(
      () => ((settled = true), undefined),
      (error: unknown) => ((settled = true), error),
    );
    await started.promise;
    expect(seen).toBe(controller.signal);
    controller.abort(reason);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false); // the tool still works: the run waits for it
    release.resolve();
    expect(await outcome).toBe(reason);
    expect(model.calls).toHaveLength(1);
    expect(functionCallOutputs(state)).toEqual([{ callId: 'c1', status: 'completed', output: { type: 'text', text: 'cleaned up' } }]);
  });

  it('records a call that ends with the abort as incomplete, lets its sibling finish, and starts no queued call', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const abortableStarted = deferred();
    const siblingStarted = deferred();
    const releaseSibling = deferred();
    const queued = vi.fn(async () => 'must not run');
    const abortable = tool({
      name: 'abortable',
      description: 'ends when its signal fires',
      parameters: z.object({}),
      execute: async (_input, _context, details) => {
        abortableStarted.resolve();
        return untilAborted(details.signal);
      },
    });
    const sibling = tool({
      name: 'sibling',
      description: 'ignores the signal',
      parameters: z.object({}),
      execute: async () => {
        siblingStarted.resolve();
        await releaseSibling.promise;
        return 'sibling done';
      },
    });
    const later = tool({ name: 'later', description: 'queued behind the others', parameters: z.object({}), execute: queued });
    const model = new ScriptedModel([
      [functionCall('abortable', {}, { callId: 'a' }), functionCall('sibling', {}, { callId: 's' }), functionCall('later', {}, { callId: 'l' })],
      [assistantMessage('never asked')],
    ]);
    const agent = new Agent({ name: 'A', model, tools: [abortable, sibling, later] });
    const state = new RunState(new RunContext(), 'go', agent, 10);
    const runner = new Runner({ toolExecution: { maxFunctionToolConcurrency: 2 } });
    const outcome = runner.run(agent, state, { signal: controller.signal }).catch((error: unknown) => error);
    await Promise.all([abortableStarted.promise, siblingStarted.promise]);
    controller.abort(reason);
    releaseSibling.resolve();
    expect(await outcome).toBe(reason);
    expect(queued).not.toHaveBeenCalled();
    expect(functionCallOutputs(state)).toEqual([
      { callId: 'a', status: 'incomplete', output: { type: 'text', text: 'aborted' } },
      { callId: 's', status: 'completed', output: { type: 'text', text: 'sibling done' } },
      { callId: 'l', status: 'incomplete', output: { type: 'text', text: 'aborted' } },
    ]);
  });

  it('resumes a cancelled turn by asking the model again, without running its tools again', async () => {
    const controller = new AbortController();
    const started = deferred();
    const execute = vi.fn(async (_input: unknown, _context: unknown, details: { signal: AbortSignal }) => {
      started.resolve();
      return untilAborted(details.signal);
    });
    const slow = tool({ name: 'slow', description: 'slow', parameters: z.object({}), execute });
    const model = new ScriptedModel([[functionCall('slow', {}, { callId: 'c1' })], [assistantMessage('answered after the abort')]]);
    const agent = new Agent({ name: 'A', model, tools: [slow] });
    const state = new RunState(new RunContext(), 'go', agent, 10);
    const first = run(agent, state, { signal: controller.signal }).catch((error: unknown) => error);
    await started.promise;
    controller.abort();
    expect(await first).toBeInstanceOf(Error);

    const resumed = await run(agent, await RunState.fromString(agent, state.toString()));
    expect(resumed.finalOutput).toBe('answered after the abort');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(model.calls).toHaveLength(2);
  });

  it('ends a streaming agent tool cut short by a stream consumer’s cancel as aborted, its turn settled, and a resume asks the model again', async () => {
    const nestedStarted = deferred();
    const nestedModel = new ScriptedModel([
      modelStream((call) =>
        (async function* () {
          nestedStarted.resolve();
          const signal = call.request.signal!;
          await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
          signal.throwIfAborted();
        })(),
      ),
    ]);
    const nested = new Agent({ name: 'Nested', model: nestedModel });
    const nestedTool = nested.asTool({ toolName: 'ask_nested', toolDescription: 'asks the nested agent', onStream: () => undefined });
    const model = new ScriptedModel([[functionCall('ask_nested', { input: 'hi' }, { callId: 'n1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Parent', model, tools: [nestedTool] });
    const cancelled = await run(agent, 'go', { stream: true });
    const reader = cancelled.toStream().getReader();
    await nestedStarted.promise;
    await reader.cancel('stop');
    await cancelled.completed;
    expect(cancelled.cancelled).toBe(true);
    expect(functionCallOutputs(cancelled.state)).toEqual([{ callId: 'n1', status: 'incomplete', output: { type: 'text', text: 'aborted' } }]);
    expect(cancelled.state._currentTurnInProgress).toBe(false);
    expect(cancelled.state._currentStep?.type).toBe('next_step_run_again');

    const resumed = await run(agent, cancelled.state);
    expect(resumed.finalOutput).toBe('done');
    expect(model.calls).toHaveLength(2);
  });
});

describe('cancelling a run while its tools run, in a turn that also hands off', () => {
  it.each(['plain', 'streamed'] as const)('%s: the handoff is not made, its call is answered aborted (incomplete), and the resumed run sends an answer for every call', async (mode) => {
    const controller = new AbortController();
    const reason = new Error('stop before the handoff');
    const started = deferred();
    const release = deferred();
    const slow = tool({
      name: 'slow',
      description: 'finishes after the cancellation',
      parameters: z.object({}),
      execute: async () => {
        started.resolve();
        await release.promise;
        return 'tool result';
      },
    });
    const onHandoff = vi.fn();
    const target = new Agent({ name: 'Target', model: new ScriptedModel([[assistantMessage('from the target')]]) });
    const toTarget = new Handoff(target, () => (onHandoff(), target));
    const model = new ScriptedModel([[functionCall('slow', {}, { callId: 'tool-call' }), functionCall(toTarget.toolName, {}, { callId: 'handoff-call' })], [assistantMessage('resumed')]]);
    const source = new Agent({ name: 'Source', model, tools: [slow], handoffs: [toTarget] });
    const state = new RunState(new RunContext(), 'go', source, 10);
    const session = new MemorySession();
    const first =
      mode === 'plain'
        ? run(source, state, { session, signal: controller.signal })
        : run(source, state, { session, signal: controller.signal, stream: true }).then(async (result) => {
            for await (const _event of result);
            await result.completed;
          });
    const settled = first.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await started.promise;
    controller.abort(reason);
    release.resolve();
    expect(await settled).toBe(mode === 'plain' ? reason : 'resolved');
    expect(onHandoff).not.toHaveBeenCalled();
    expect(functionCallOutputs(state)).toEqual([
      { callId: 'tool-call', status: 'completed', output: { type: 'text', text: 'tool result' } },
      { callId: 'handoff-call', status: 'incomplete', output: { type: 'text', text: 'aborted' } },
    ]);
    const resumed = await run(source, state, { session });
    expect(resumed.finalOutput).toBe('resumed');
    expect(resumed.lastAgent).toBe(source);
    expect(onHandoff).not.toHaveBeenCalled();
    const sent = model.calls[1]!.request.input as Array<{ type: string; callId?: string }>;
    const calls = sent.filter((item) => item.type === 'function_call').map((item) => item.callId);
    const answered = sent.filter((item) => item.type === 'function_call_result').map((item) => item.callId);
    expect(answered).toEqual(calls);
    const saved = (await session.getItems()).filter((item) => item.type === 'function_call_result').map((item) => (item as { callId: string }).callId);
    expect(saved).toEqual(['tool-call', 'handoff-call']);
  });
});
