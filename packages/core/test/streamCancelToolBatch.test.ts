import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FakeComputer, ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, Runner, computerTool, tool, type ComputerUseCallItem } from '../src/index.js';
import { deferred, functionCallOutputs } from './helpers.js';

// A streamed run's consumer that cancels while function tools run cancels the batch: the calls in
// flight are told through their signals, the run waits for them, and each call keeps an output in
// history (the one it finished with, or an incomplete `aborted`), so a resume asks the model again
// rather than running a tool twice or leaving a call without its output.

describe.each([
  ['one call', ['abortable']],
  ['two calls', ['abortable', 'finisher']],
] as const)('cancelling a streamed run while its function tools run (%s)', (_label, names) => {
  it('keeps an output for each call, waiting for the one that finishes its work', async () => {
    const started = deferred();
    const finisherRelease = deferred();
    let finisherDone = false;
    const abortable = tool({
      name: 'abortable',
      description: '',
      parameters: z.object({}),
      execute: (_input, _context, details) =>
        new Promise((_resolve, reject) => {
          started.resolve();
          details!.signal!.addEventListener('abort', () => reject(Object.assign(new Error('stopped'), { name: 'AbortError' })), { once: true });
        }),
    });
    const finisher = tool({
      name: 'finisher',
      description: '',
      parameters: z.object({}),
      execute: async () => {
        await finisherRelease.promise;
        finisherDone = true;
        return 'finished anyway';
      },
    });
    const model = new ScriptedModel([names.map((name, i) => functionCall(name, {}, { callId: `c${i}` })), [assistantMessage('resumed')]]);
    const agent = new Agent({ name: 'A', model, tools: [abortable, finisher] });
    const runner = new Runner();
    const result = await runner.run(agent, 'go', { stream: true });
    const reader = result.toStream().getReader();
    await started.promise;
    const cancelling = reader.cancel('stop');
    setTimeout(() => finisherRelease.resolve(), 20);
    await cancelling;
    await result.completed;
    expect(result.cancelled).toBe(true);
    const expected = [{ callId: 'c0', status: 'incomplete', output: { type: 'text', text: 'aborted' } }];
    if (names.length === 2) {
      expect(finisherDone).toBe(true);
      expected.push({ callId: 'c1', status: 'completed', output: { type: 'text', text: 'finished anyway' } });
    }
    expect(functionCallOutputs(result.state)).toEqual(expected);
    expect(result.state._currentTurnInProgress).toBe(false);

    const resumed = await runner.run(agent, result.state);
    expect(resumed.finalOutput).toBe('resumed');
    expect(model.calls).toHaveLength(2);
  });
});

describe('cancelling a streamed run while the computer runs (no function tool in the turn)', () => {
  it('waits for the call in flight, keeps an output for each call, and runs no action', async () => {
    const checking = deferred();
    const releaseCheck = deferred();
    const computer = new FakeComputer();
    const screenshot = vi.spyOn(computer, 'screenshot');
    const computerUse = computerTool({ computer, onSafetyCheck: async () => (checking.resolve(), await releaseCheck.promise, true) });
    const safetyCheck = { providerData: { pending_safety_checks: [{ id: 'check-1', code: 'malicious_instructions' }] } };
    const screen = (callId: string, extra: Partial<ComputerUseCallItem> = {}): ComputerUseCallItem => ({
      type: 'computer_call',
      id: callId,
      callId,
      status: 'completed',
      action: { type: 'screenshot' },
      ...extra,
    });
    const model = new ScriptedModel([[screen('c1', safetyCheck), screen('c2')], [assistantMessage('resumed')]]);
    const agent = new Agent({ name: 'A', model, tools: [computerUse] });
    const result = await new Runner().run(agent, 'go', { stream: true });
    const reader = result.toStream().getReader();
    await checking.promise;
    let settled = false;
    const cancelling = reader.cancel('stop').then(() => result.completed).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false); // the safety check still runs: the run waits for it
    releaseCheck.resolve();
    await cancelling;
    expect(result.cancelled).toBe(true);
    const kept = result.state.history.filter((item) => item.type === 'computer_call_result');
    // Each call has an output, incomplete: the checked one was stopped before its action, the second never started.
    expect(kept.map((item) => ({ callId: (item as { callId: string }).callId, status: item.providerData?.status }))).toEqual([
      { callId: 'c1', status: 'incomplete' },
      { callId: 'c2', status: 'incomplete' },
    ]);
    expect(screenshot).not.toHaveBeenCalled();
    expect(result.state._currentTurnInProgress).toBe(false);
  });
});

describe('cancelling a streamed run after an agent tool’s nested run paused, while a sibling still runs', () => {
  it('ends the agent tool’s call with an incomplete `aborted` output (no pause is left behind) and keeps the sibling’s', async () => {
    const asked = deferred();
    const siblingStarted = deferred();
    const releaseSibling = deferred();
    const guarded = tool({ name: 'guarded', description: '', parameters: z.object({}), needsApproval: async () => (asked.resolve(), true), execute: () => 'never' });
    const inner = new Agent({ name: 'Inner', model: new ScriptedModel([[functionCall('guarded', {}, { callId: 'i1' })]]), tools: [guarded] });
    const sibling = tool({
      name: 'sibling',
      description: '',
      parameters: z.object({}),
      execute: async () => {
        siblingStarted.resolve();
        await releaseSibling.promise;
        return 'sibling done';
      },
    });
    const model = new ScriptedModel([[functionCall('ask_inner', { input: 'go' }, { callId: 'a1' }), functionCall('sibling', {}, { callId: 's1' })], [assistantMessage('resumed')]]);
    const agent = new Agent({ name: 'A', model, tools: [inner.asTool({ toolName: 'ask_inner', toolDescription: '' }), sibling] });
    const runner = new Runner();
    const result = await runner.run(agent, 'go', { stream: true });
    const reader = result.toStream().getReader();
    await Promise.all([asked.promise, siblingStarted.promise]);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the nested run has paused by now
    const cancelling = reader.cancel('stop');
    setTimeout(() => releaseSibling.resolve(), 20);
    await cancelling;
    await result.completed;
    expect(result.cancelled).toBe(true);
    expect(functionCallOutputs(result.state)).toEqual([
      { callId: 'a1', status: 'incomplete', output: { type: 'text', text: 'aborted' } },
      { callId: 's1', status: 'completed', output: { type: 'text', text: 'sibling done' } },
    ]);
    expect(result.interruptions).toEqual([]);
    expect(result.state._currentStep?.type).toBe('next_step_run_again');
  });
});

describe('cancelling a streamed resumed turn that rejected a computer call while an approved tool still runs', () => {
  it('keeps the rejected call’s output and the rejection message after it, and an `aborted` output for the tool', async () => {
    const started = deferred();
    const slow = tool({
      name: 'slow',
      description: '',
      parameters: z.object({}),
      needsApproval: async () => true,
      execute: (_input, _context, details) =>
        new Promise((_resolve, reject) => {
          started.resolve();
          details!.signal!.addEventListener('abort', () => reject(Object.assign(new Error('stopped'), { name: 'AbortError' })), { once: true });
        }),
    });
    const computerUse = computerTool({ computer: new FakeComputer(), needsApproval: async () => true });
    const screen: ComputerUseCallItem = { type: 'computer_call', id: 'c1', callId: 'c1', status: 'completed', action: { type: 'screenshot' } };
    const model = new ScriptedModel([[functionCall('slow', {}, { callId: 's1' }), screen], [assistantMessage('resumed')]]);
    const agent = new Agent({ name: 'A', model, tools: [slow, computerUse] });
    const runner = new Runner();
    const paused = await runner.run(agent, 'go');
    expect(paused.interruptions).toHaveLength(2);
    const state = paused.state;
    for (const approval of state.getInterruptions()) {
      if (approval.rawItem.type === 'computer_call') state.reject(approval, { message: 'Not on this screen.' });
      else state.approve(approval);
    }
    const result = await runner.run(agent, state, { stream: true });
    const reader = result.toStream().getReader();
    await started.promise;
    await reader.cancel('stop');
    await result.completed;
    expect(result.cancelled).toBe(true);
    const rejection = result.state.history.findIndex((item) => item.type === 'computer_call_result');
    expect(result.state.history[rejection + 1]).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Not on this screen.' }] });
    expect(functionCallOutputs(result.state)).toEqual([{ callId: 's1', status: 'incomplete', output: { type: 'text', text: 'aborted' } }]);
  });
});
