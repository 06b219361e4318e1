import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunContext, RunState, Runner, ToolCallError, tool, type RunOptions, type StepRunner } from '../src/index.js';

// A function tool's call is a step of its own when the run has a step runner (a durable run), and
// is handled directly when it has none. How a failing call ends must not depend on which: the same
// error, the same answer to invalid arguments, the same `aborted` output for a cancelled call.

/** A step runner that journals nothing: each step runs as it is, but through the step path. */
const passThrough: StepRunner = { runStep: (_step, effect) => effect };

const modes: Array<[string, StepRunner | undefined]> = [
  ['without a step runner', undefined],
  ['with a step runner', passThrough],
];

const runnerFor = (stepRunner: StepRunner | undefined, options: ConstructorParameters<typeof Runner>[0] = {}) =>
  new Runner(stepRunner === undefined ? options : { ...options, stepRunner });

describe.each(modes)('a failing function tool %s', (_label, stepRunner) => {
  it('with errorFunction: null fails the run with a ToolCallError wrapping what it threw', async () => {
    const thrown = new Error('boom');
    const boom = tool({
      name: 'boom',
      description: '',
      parameters: z.object({}),
      errorFunction: null,
      execute: () => {
        throw thrown;
      },
    });
    const model = new ScriptedModel([[functionCall('boom', {}, { callId: 'b1' })], [assistantMessage('never')]]);
    const error = await runnerFor(stepRunner)
      .run(new Agent({ name: 'A', model, tools: [boom] }), 'go')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).message).toBe('Failed to run function tools: Error: boom');
    expect((error as ToolCallError).cause ?? (error as { error?: unknown }).error).toBe(thrown);
  });

  it.each([
    ['answered by the default error function', undefined],
    ['thrown by a tool without an error function', null],
  ] as const)('with arguments its schema refuses (%s) and invalidToolInputBehavior raise_error fails the run naming the tool and the field', async (_how, errorFunction) => {
    const lookup = tool({
      name: 'lookup',
      description: '',
      parameters: z.object({ id: z.number() }),
      execute: ({ id }) => `found ${id}`,
      ...(errorFunction === null ? { errorFunction } : {}),
    });
    const model = new ScriptedModel([[functionCall('lookup', { id: 'not a number' }, { callId: 'l1' })], [assistantMessage('never')]]);
    const error = await runnerFor(stepRunner, { invalidToolInputBehavior: 'raise_error' })
      .run(new Agent({ name: 'A', model, tools: [lookup] }), 'go')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('ModelBehaviorError');
    expect((error as Error).message).toContain('lookup');
    expect((error as Error).message).toContain('id');
    expect(model.calls).toHaveLength(1);
  });

  // The waiting call learns of its sibling's failure through its own signal, whatever the caller
  // passed: no signal, a signal of its own (which never aborts here), a streamed run.
  it.each([
    ['no signal, not streamed', false, false],
    ["the caller's signal, not streamed", true, false],
    ['no signal, streamed', false, true],
    ["the caller's signal, streamed", true, true],
  ] as const)('that fails beside another call ends that call `aborted` (its end hook says so, once) and fails the run with its own error (%s)', async (_case, callerSignal, streamed) => {
    const waiter = tool({
      name: 'waiter',
      description: '',
      parameters: z.object({}),
      execute: (_input, _context, details) =>
        new Promise((_resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('never cancelled')), 2_000);
          details!.signal!.addEventListener('abort', () => (clearTimeout(timer), reject(details!.signal!.reason)));
        }),
    });
    const boom = tool({
      name: 'boom',
      description: '',
      parameters: z.object({}),
      errorFunction: null,
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        throw new Error('boom');
      },
    });
    const model = new ScriptedModel([[functionCall('waiter', {}, { callId: 'w1' }), functionCall('boom', {}, { callId: 'b1' })], [assistantMessage('never')]]);
    const agent = new Agent({ name: 'A', model, tools: [waiter, boom] });
    const ended: string[] = [];
    agent.on('agent_tool_end', (_context, tool, result) => ended.push(`${tool.name} ${result}`));
    const signal = callerSignal ? { signal: new AbortController().signal } : {};
    const running = streamed
      ? runnerFor(stepRunner)
          .run(agent, 'go', { stream: true, ...signal })
          .then(async (result) => {
            for await (const _event of result);
            return result.completed;
          })
      : runnerFor(stepRunner).run(agent, 'go', signal);
    const error = await running.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as Error).message).toBe('Failed to run function tools: Error: boom');
    expect(ended.filter((line) => line.startsWith('waiter'))).toEqual(['waiter aborted']);
  });

  it('that the caller cancelled is recorded with the output `aborted`, incomplete', async () => {
    const controller = new AbortController();
    const waiter = tool({
      name: 'waiter',
      description: '',
      parameters: z.object({}),
      execute: (_input, _context, details) =>
        new Promise((_resolve, reject) => {
          details!.signal!.addEventListener('abort', () => reject(details!.signal!.reason));
          setTimeout(() => controller.abort(), 10);
        }),
    });
    const model = new ScriptedModel([[functionCall('waiter', {}, { callId: 'w1' })], [assistantMessage('never asked')]]);
    const agent = new Agent({ name: 'A', model, tools: [waiter] });
    const state = new RunState(new RunContext(), 'go', agent, 10);
    const options: RunOptions<unknown> = { signal: controller.signal };
    await expect(runnerFor(stepRunner).run(agent, state, options)).rejects.toBeDefined();
    const item = state.generatedItems.find((candidate) => candidate.type === 'tool_call_output_item') as { output: unknown; rawItem: { status?: string } };
    expect(item.output).toBe('aborted');
    expect(item.rawItem.status).toBe('incomplete');
    expect(model.calls).toHaveLength(1);
  });
});
