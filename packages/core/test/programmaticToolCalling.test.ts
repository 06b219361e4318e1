import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, ModelBehaviorError, RunContext, RunState, UserError, run, tool, type AgentInputItem, type HostedTool } from '../src/index.js';

const PTC: HostedTool = { type: 'hosted_tool', name: 'programmatic_tool_calling', providerData: { type: 'programmatic_tool_calling' } };
const program = { type: 'program', id: 'prog_1', callId: 'call_prog', code: 'text(await tools.lookup({key:"a"}))', fingerprint: 'fp' } as const;
const programOutput = { type: 'program_output', id: 'prog_out', callId: 'call_prog', output: '{"key":"a"}', status: 'completed' } as const;
const fromProgram = { caller: { type: 'program' as const, callerId: 'call_prog' } };

/** A function call a program made. */
const programCall = (callId: string) => ({ type: 'function_call' as const, id: `fc_${callId}`, callId, name: 'lookup', arguments: '{"key":"a"}', status: 'completed' as const, ...fromProgram });

const lookup = (allowedCallers?: Array<'direct' | 'programmatic'>) =>
  tool({
    name: 'lookup',
    description: 'Returns the key',
    parameters: z.object({ key: z.string() }),
    ...(allowedCallers ? { allowedCallers: allowedCallers as never } : {}),
    execute: ({ key }) => ({ key }),
  });

describe('tool({ allowedCallers })', () => {
  it('is offered to the model with the tool', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await run(new Agent({ name: 'Offer', model, tools: [lookup(['programmatic', 'direct']), PTC] }), 'go');
    expect(model.calls[0]!.request.tools[0]).toMatchObject({ name: 'lookup', allowedCallers: ['programmatic', 'direct'] });
  });

  it.each([
    [[], "Tool 'lookup' allowedCallers must contain at least one caller."],
    [['robot'], "Tool 'lookup' allowedCallers contains unsupported caller 'robot'."],
    [['direct', 'direct'], "Tool 'lookup' allowedCallers must not contain duplicate callers."],
  ])('refuses %j', (callers, message) => {
    expect(() => lookup(callers as never)).toThrow(UserError);
    expect(() => lookup(callers as never)).toThrow(message);
  });
});

describe('Programmatic Tool Calling in a run', () => {
  it('runs the program’s calls, sends their results with the caller, and goes on to the program output and the answer', async () => {
    const model = new ScriptedModel([
      [program, programCall('c1')],
      [programOutput],
      [assistantMessage('program done')],
    ]);
    const agent = new Agent({ name: 'Programmer', model, tools: [lookup(['programmatic']), PTC], toolUseBehavior: 'stop_on_first_tool' });
    const result = await run(agent, 'go');
    // A program's call does not end the run under stop_on_first_tool: it feeds the program.
    expect(result.finalOutput).toBe('program done');
    const second = model.calls[1]!.request.input as AgentInputItem[];
    expect(second.map((item) => item.type)).toEqual(['message', 'program', 'function_call', 'function_call_result']);
    expect(second.at(-1)).toMatchObject({ type: 'function_call_result', callId: 'c1', ...fromProgram });
    expect((model.calls[2]!.request.input as AgentInputItem[]).at(-1)).toMatchObject(programOutput);
    expect(result.newItems.map((item) => `${item.type}:${item.rawItem.type}`)).toEqual([
      'tool_call_item:program',
      'tool_call_item:function_call',
      'tool_call_output_item:function_call_result',
      'tool_call_output_item:program_output',
      'message_output_item:message',
    ]);
  });

  it('program items survive toString() / fromString()', async () => {
    const model = new ScriptedModel([[program, programCall('c1')], [programOutput]]);
    const agent = new Agent({ name: 'Saver', model, tools: [lookup(['programmatic']), PTC] });
    const error = (await run(agent, 'go', { maxTurns: 2 }).catch((e: unknown) => e)) as { state: RunState<unknown, Agent> };
    const restored = await RunState.fromString(agent, error.state.toString());
    expect(restored.generatedItems.map((item) => item.rawItem.type)).toEqual(['program', 'function_call', 'function_call_result', 'program_output']);
    expect(restored.history).toEqual(error.state.history);
  });

  it('a program without programmaticToolCallingTool() on the agent is a ModelBehaviorError', async () => {
    const model = new ScriptedModel([[program]]);
    const error = await run(new Agent({ name: 'NoPtc', model, tools: [] }), 'go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toBe('Model produced a program item without programmaticToolCallingTool() in Agent (NoPtc).');
  });

  it('a call from a caller the tool does not allow is a ModelBehaviorError: a program calling a direct-only tool, the model calling a program-only tool', async () => {
    const fromProgramCall = new ScriptedModel([[program, programCall('c1')]]);
    const direct = await run(new Agent({ name: 'Direct', model: fromProgramCall, tools: [lookup(), PTC] }), 'go').catch((e: unknown) => e);
    expect((direct as Error).message).toBe('Model invoked tool lookup with caller programmatic, but the tool allows only ["direct"].');
    const fromModel = new ScriptedModel([[functionCall('lookup', { key: 'a' }, { callId: 'c2' })]]);
    const programOnly = await run(new Agent({ name: 'ProgOnly', model: fromModel, tools: [lookup(['programmatic']), PTC] }), 'go').catch((e: unknown) => e);
    expect(programOnly).toBeInstanceOf(ModelBehaviorError);
    expect((programOnly as Error).message).toContain('with caller direct');
  });
});

describe('a program’s call the run’s caller cancelled', () => {
  it('is recorded `aborted`, incomplete, with its caller (so the program is answered for the call it made)', async () => {
    const controller = new AbortController();
    const waiting = tool({
      name: 'lookup',
      description: 'waits until cancelled',
      parameters: z.object({ key: z.string() }),
      allowedCallers: ['programmatic'] as never,
      execute: (_input, _context, details) =>
        new Promise((_resolve, reject) => {
          details!.signal!.addEventListener('abort', () => reject(details!.signal!.reason), { once: true });
          setTimeout(() => controller.abort(), 10);
        }),
    });
    const model = new ScriptedModel([[program, programCall('c1')], [assistantMessage('never asked')]]);
    const agent = new Agent({ name: 'Programmer', model, tools: [waiting, PTC] });
    const state = new RunState(new RunContext(), 'go', agent, 10);
    await expect(run(agent, state, { signal: controller.signal })).rejects.toBeDefined();
    const result = state.history.find((item) => item.type === 'function_call_result');
    expect(result).toMatchObject({ type: 'function_call_result', callId: 'c1', status: 'incomplete', output: { type: 'text', text: 'aborted' }, ...fromProgram });
  });
});
