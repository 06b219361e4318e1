import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { FakeComputer, ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunContext, RunState, Runner, ToolCallError, applyPatchTool, computerTool, run, shellTool, tool, type ComputerAction, type ComputerUseCallItem, type Editor, type Shell } from '../src/index.js';
import { aborted, deferred } from './helpers.js';

function screenCall(callId: string, extra: Partial<ComputerUseCallItem> = {}): ComputerUseCallItem {
  return { type: 'computer_call', id: callId, callId, status: 'completed', action: { type: 'screenshot' }, ...extra };
}

const withSafetyCheck = { providerData: { pending_safety_checks: [{ id: 'check-1', code: 'malicious_instructions' }] } };

/** Settles the run into `{ error }` and flags when it has settled. */
function watch(promise: Promise<unknown>) {
  const state = { settled: false };
  const outcome = promise.then(
    () => ((state.settled = true), { error: undefined as unknown }),
    (error: unknown) => ((state.settled = true), { error }),
  );
  return { state, outcome };
}

describe('function tools and the computer run side by side', () => {
  it('starts the computer call while a function tool is still running', async () => {
    const computerDone = deferred();
    const computer = new FakeComputer();
    const waiting = tool({
      name: 'waiting',
      description: 'waits for the computer',
      parameters: z.object({}),
      execute: async () => {
        await computerDone.promise;
        return 'saw the computer finish';
      },
    });
    // The computer's call is not queued behind the function tool: without that, this run would never end.
    const agent = new Agent({
      name: 'Both',
      model: new ScriptedModel([[functionCall('waiting', {}, { callId: 'f1' }), screenCall('c1', withSafetyCheck)], [assistantMessage('done')]]),
      tools: [waiting, computerTool({ computer, onSafetyCheck: async () => (computerDone.resolve(), true) })],
    });
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('done');
    const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item').map((item) => (item.rawItem as { type: string }).type);
    expect(outputs).toEqual(['function_call_result', 'computer_call_result']); // history keeps the category order
  });

  // A lone function call beside a computer call is cancelled through the batch's signal, not the
  // caller's, also when the caller passed one (which never fires here).
  it.each([
    ['no signal', false],
    ["the caller's signal", true],
  ])('a failed computer call cancels the function tools, waits for them to finish, then fails with its own error (%s)', async (_label, callerSignal) => {
    const failure = new Error('safety check handler broke');
    const started = deferred();
    let drained = false;
    const slow = tool({
      name: 'slow',
      description: 'stops when cancelled',
      parameters: z.object({}),
      errorFunction: null,
      execute: async (_input, _context, details) => {
        started.resolve();
        await aborted(details.signal!);
        await new Promise((resolve) => setTimeout(resolve, 10));
        drained = true;
        throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
      },
    });
    const agent = new Agent({
      name: 'Both',
      model: new ScriptedModel([[functionCall('slow', {}, { callId: 'f1' }), screenCall('c1', withSafetyCheck)]]),
      tools: [slow, computerTool({ computer: new FakeComputer(), onSafetyCheck: async () => (await started.promise, Promise.reject(failure)) })],
    });
    const error = await run(agent, 'go', callerSignal ? { signal: new AbortController().signal } : {}).catch((caught: unknown) => caught);
    expect(error).toBe(failure);
    expect(drained).toBe(true);
  });

  it('a failed function tool stops the computer before its actions, ends it as aborted, and reports the tool’s error', async () => {
    const failure = new Error('function failed');
    const checking = deferred();
    const releaseCheck = deferred();
    const computer = new FakeComputer();
    const screenshot = vi.spyOn(computer, 'screenshot');
    const failing = tool({
      name: 'failing',
      description: 'fails once the computer is checking',
      parameters: z.object({}),
      errorFunction: null,
      execute: async () => {
        await checking.promise;
        throw failure;
      },
    });
    const computerUse = computerTool({ computer, onSafetyCheck: async () => (checking.resolve(), await releaseCheck.promise, true) });
    const agent = new Agent({
      name: 'Both',
      model: new ScriptedModel([[functionCall('failing', {}, { callId: 'f1' }), screenCall('c1', withSafetyCheck), screenCall('c2')]]),
      tools: [failing, computerUse],
    });
    const runner = new Runner();
    const ends: unknown[] = [];
    runner.on('agent_tool_end', (_context, _agent, ended, result) => {
      if (ended === computerUse) ends.push(result);
    });
    const { state, outcome } = watch(runner.run(agent, 'go'));
    await checking.promise;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.settled).toBe(false); // the computer's safety check still runs: the run waits for it
    releaseCheck.resolve();
    const { error } = await outcome;
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).error).toBe(failure);
    expect(screenshot).not.toHaveBeenCalled();
    expect(ends).toEqual(['aborted']); // the started call ends aborted; the second is never started
  });

  it('a batched approval question that throws cancels the siblings at once, and the others are still waited for', async () => {
    const failure = new Error('approval check broke');
    const functionCancelled = deferred();
    const releaseOther = deferred();
    let otherFinishedAfterRun = false;
    let settled = false;
    const waiting = tool({
      name: 'waiting',
      description: 'returns once cancelled',
      parameters: z.object({}),
      execute: async (_input, _context, details) => {
        await aborted(details.signal!);
        functionCancelled.resolve();
        return 'cancelled';
      },
    });
    const computer = new FakeComputer();
    const needsApproval = vi.fn(async (_context: unknown, action: ComputerAction) => {
      if (action.type === 'click') throw failure;
      await releaseOther.promise;
      otherFinishedAfterRun = settled;
      return false;
    });
    const call: ComputerUseCallItem = {
      type: 'computer_call',
      id: 'c1',
      callId: 'c1',
      status: 'completed',
      actions: [
        { type: 'click', x: 1, y: 1, button: 'left' },
        { type: 'move', x: 2, y: 2 },
      ],
    };
    const agent = new Agent({
      name: 'Both',
      model: new ScriptedModel([[functionCall('waiting', {}, { callId: 'f1' }), call]]),
      tools: [waiting, computerTool({ computer, needsApproval })],
    });
    const outcome = run(agent, 'go').then(
      () => undefined,
      (error: unknown) => error,
    );
    void outcome.finally(() => (settled = true));
    await functionCancelled.promise;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    releaseOther.resolve();
    expect(await outcome).toBe(failure);
    expect(otherFinishedAfterRun).toBe(false);
    expect(needsApproval).toHaveBeenCalledTimes(2);
  });

  it('a run cancelled while the computer acts waits for the action, then keeps an incomplete output for the call', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const clicking = deferred();
    const releaseClick = deferred();
    const computer = new FakeComputer();
    computer.click = async () => {
      clicking.resolve();
      await releaseClick.promise;
    };
    const listening = tool({
      name: 'listening',
      description: 'throws the run’s reason',
      parameters: z.object({}),
      errorFunction: null,
      execute: async (_input, _context, details) => {
        await aborted(details.signal!);
        details.signal!.throwIfAborted();
        return 'never';
      },
    });
    const agent = new Agent({
      name: 'Both',
      model: new ScriptedModel([[functionCall('listening', {}, { callId: 'f1' }), screenCall('c1', { action: { type: 'click', x: 1, y: 1, button: 'left' } })]]),
      tools: [listening, computerTool({ computer })],
    });
    const runState = new RunState(new RunContext(), 'go', agent, 10);
    const { state, outcome } = watch(run(agent, runState, { signal: controller.signal }));
    await clicking.promise;
    controller.abort(reason);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.settled).toBe(false);
    releaseClick.resolve();
    expect((await outcome).error).toBe(reason);
    const results = runState.history.filter((item) => item.type === 'computer_call_result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ callId: 'c1', providerData: { status: 'incomplete' } });
  });

  it('a run cancelled during its function tools keeps a pending approval and answers the shell and patch calls as aborted, unstarted', async () => {
    const controller = new AbortController();
    const reason = new Error('stop everything');
    const started = deferred();
    const shellRuns: unknown[] = [];
    const shell: Shell = { run: async (action) => (shellRuns.push(action), { output: [] }) };
    const edits: unknown[] = [];
    const record = async (op: unknown) => (edits.push(op), { output: 'edited' });
    const editor: Editor = { createFile: record, updateFile: record, deleteFile: record };
    const approvedRuns = vi.fn(async () => 'approved');
    const listening = tool({
      name: 'listening',
      description: 'throws the run’s reason',
      parameters: z.object({}),
      errorFunction: null,
      execute: async (_input, _context, details) => {
        started.resolve();
        await aborted(details.signal!);
        details.signal!.throwIfAborted();
        return 'never';
      },
    });
    const guarded = tool({ name: 'guarded', description: 'needs approval', parameters: z.object({}), needsApproval: true, execute: approvedRuns });
    const agent = new Agent({
      name: 'Mixed',
      model: new ScriptedModel([
        [
          functionCall('listening', {}, { callId: 'f1' }),
          { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['echo hi'] } },
          { type: 'apply_patch_call', callId: 'p1', status: 'completed', operation: { type: 'update_file', path: 'a.txt', diff: '+x' } },
          functionCall('guarded', {}, { callId: 'g1' }),
        ],
      ]),
      tools: [listening, guarded, shellTool({ shell }), applyPatchTool({ editor })],
    });
    const runState = new RunState(new RunContext(), 'go', agent, 10);
    const outcome = run(agent, runState, { signal: controller.signal }).catch((error: unknown) => error);
    await started.promise;
    controller.abort(reason);
    expect(await outcome).toBe(reason);
    expect(shellRuns).toEqual([]);
    expect(edits).toEqual([]);
    expect(approvedRuns).not.toHaveBeenCalled();
    expect(runState.getInterruptions().map((item) => (item.rawItem as { callId: string }).callId)).toEqual(['g1']);
    const answers = runState.history.filter((item) => 'callId' in item && item.type !== 'function_call' && item.type !== 'shell_call' && item.type !== 'apply_patch_call');
    expect(answers).toEqual([
      expect.objectContaining({ type: 'function_call_result', callId: 'f1', status: 'incomplete' }),
      expect.objectContaining({ type: 'shell_call_output', callId: 's1', status: 'incomplete', output: [{ stdout: '', stderr: 'aborted', outcome: { type: 'timeout' } }] }),
      expect.objectContaining({ type: 'apply_patch_call_output', callId: 'p1', status: 'failed', output: 'aborted' }),
    ]);
  });
});
