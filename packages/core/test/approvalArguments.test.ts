import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunState, run, tool, type FunctionTool } from '../src/index.js';
import { outputText, toolResultsOf } from '@baton/testing';
import { recordOf } from '../src/state/runState.js';

/**
 * A function tool's arguments on the way to an approval (compat `approvalArguments.test.ts` holds
 * the side-by-side table): read once before the run asks, handed to `execute` as read, a dynamic
 * policy asked about a copy, a decided call not asking again.
 */

/** A zod schema that counts its validations (a refinement runs on every parse). */
function countedSchema(log: string[]) {
  return z
    .object({ amount: z.number(), currency: z.string().nullable().default('EUR') })
    .refine((value) => (log.push(`validate ${value.amount}`), true));
}

function payTool(log: string[], needsApproval: boolean | ((context: unknown, input: any, callId: string) => Promise<boolean> | boolean)) {
  return tool({
    name: 'pay',
    description: 'Send money',
    parameters: countedSchema(log),
    needsApproval: needsApproval as never,
    execute: (input) => {
      log.push(`execute ${JSON.stringify(input)}`);
      return 'paid';
    },
  });
}

const payCall = (callId: string, args: Record<string, unknown> = { amount: 5 }) => functionCall('pay', args, { callId });

describe('a call’s arguments before its approval', () => {
  it('static approval: read once before the pause, once more when the approved call runs', async () => {
    const log: string[] = [];
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [payTool(log, true)] });
    const paused = await run(agent, 'pay');
    expect(log).toEqual(['validate 5']);
    paused.state.approve(paused.interruptions[0]!);
    const done = await run(agent, paused.state);
    expect(log).toEqual(['validate 5', 'validate 5', 'execute {"amount":5,"currency":"EUR"}']);
    expect(done.finalOutput).toBe('done');
  });

  it('a dynamic policy is asked about a copy of the arguments as execute receives them; the call it lets through is read once', async () => {
    const log: string[] = [];
    const seen: unknown[] = [];
    const policy = (_context: unknown, input: any) => {
      seen.push(structuredClone(input));
      input.amount = 1_000_000; // changing its copy changes nothing for execute
      return false;
    };
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model, tools: [payTool(log, policy)] }), 'pay');
    expect(seen).toEqual([{ amount: 5, currency: 'EUR' }]);
    expect(log).toEqual(['validate 5', 'execute {"amount":5,"currency":"EUR"}']);
  });

  it('a dynamic policy is asked about the JSON when the schema refuses the arguments; the approved call is answered as invalid without another read', async () => {
    const log: string[] = [];
    const seen: unknown[] = [];
    const policy = (_context: unknown, input: unknown) => (seen.push(input), true);
    const model = new ScriptedModel([[payCall('c1', { amount: 'lots' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [payTool(log, policy)] });
    const paused = await run(agent, 'pay');
    expect(seen).toEqual([{ amount: 'lots' }]);
    expect(paused.interruptions).toHaveLength(1);
    paused.state.approve(paused.interruptions[0]!);
    const done = await run(agent, paused.state);
    // The refinement never ran (the type check failed first), and nothing read the arguments again.
    expect(log).toEqual([]);
    expect(toolResultsOf(model.lastCall).map(outputText)).toEqual(['An error occurred while running the tool. Please try again.']);
    expect(done.finalOutput).toBe('done');
  });

  it('a decided call does not ask the policy again; its reading is kept for the resume in memory', async () => {
    const log: string[] = [];
    let asked = 0;
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [payTool(log, () => (asked++, true))] });
    const paused = await run(agent, 'pay');
    paused.state.approve(paused.interruptions[0]!);
    await run(agent, paused.state);
    expect(asked).toBe(1);
    expect(log).toEqual(['validate 5', 'execute {"amount":5,"currency":"EUR"}']);
  });

  it('resumed from the written state: the arguments are read again and the policy is asked again (its answer does not undo the approval)', async () => {
    const log: string[] = [];
    const answers = [true, false];
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [payTool(log, () => answers.shift()!)] });
    const paused = await run(agent, 'pay');
    const state = await RunState.fromString(agent, paused.state.toString());
    state.approve(state.getInterruptions()[0]!);
    const done = await run(agent, state);
    expect(answers).toEqual([]);
    expect(log).toEqual(['validate 5', 'validate 5', 'execute {"amount":5,"currency":"EUR"}']);
    expect(done.finalOutput).toBe('done');
  });

  it('resumed from the written state: a policy that now throws stops the approved call', async () => {
    const log: string[] = [];
    let calls = 0;
    const policy = () => {
      calls += 1;
      if (calls > 1) throw new Error('policy service down');
      return true;
    };
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [payTool(log, policy)] });
    const paused = await run(agent, 'pay');
    const state = await RunState.fromString(agent, paused.state.toString());
    state.approve(state.getInterruptions()[0]!);
    await expect(run(agent, state)).rejects.toThrow('policy service down');
    expect(log).toEqual(['validate 5', 'validate 5']);
  });

  it('a sticky rejection applies before the policy is asked', async () => {
    const log: string[] = [];
    let asked = 0;
    const model = new ScriptedModel([[payCall('c1')], [payCall('c2')], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [payTool(log, () => (asked++, true))] });
    const paused = await run(agent, 'pay');
    paused.state.reject(paused.interruptions[0]!, { alwaysReject: true });
    const done = await run(agent, paused.state);
    expect(asked).toBe(1);
    expect(done.interruptions).toEqual([]);
    expect(log).toEqual(['validate 5', 'validate 5']);
    expect(done.finalOutput).toBe('done');
  });

  it('arguments changed under the same call id are read again and put to the policy again, not taken from the pause', async () => {
    const log: string[] = [];
    const asked: unknown[] = [];
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [payTool(log, (_context, input) => (asked.push(input), true))] });
    const paused = await run(agent, 'pay');
    // The pending call as the state holds it, its arguments edited (a state tampered with in memory).
    for (const item of recordOf(paused.state).generatedItems) {
      const raw = item.rawItem as { type?: string; callId?: string; arguments?: string };
      if (raw.type === 'function_call' && raw.callId === 'c1') raw.arguments = JSON.stringify({ amount: 7, currency: 'USD' });
    }
    paused.state.approve(paused.interruptions[0]!);
    await run(agent, paused.state);
    expect(asked).toEqual([
      { amount: 5, currency: 'EUR' },
      { amount: 7, currency: 'USD' },
    ]);
    expect(log).toEqual(['validate 5', 'validate 7', 'execute {"amount":7,"currency":"USD"}']);
  });

  it('a tool of one’s own (not made by tool()) is asked about the JSON and reads its arguments when invoked', async () => {
    const seen: unknown[] = [];
    const invoked: string[] = [];
    const own: FunctionTool = {
      type: 'function',
      name: 'own',
      description: '',
      parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false },
      strict: true,
      invoke: async (_context, input) => (invoked.push(input), 'ok'),
      needsApproval: async (_context, input) => (seen.push(input), false),
      isEnabled: async () => true,
    };
    const model = new ScriptedModel([[functionCall('own', { n: 1 }, { callId: 'o1' })], [assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model, tools: [own] }), 'go');
    expect(seen).toEqual([{ n: 1 }]);
    expect(invoked).toEqual(['{"n":1}']);
  });

  it('a tool given the call’s details by another tool reads its own arguments (the reading is for the call’s tool only)', async () => {
    const log: string[] = [];
    const inner = payTool(log, false);
    const outer = tool({
      name: 'outer',
      description: '',
      parameters: z.object({ amount: z.number() }),
      needsApproval: () => false,
      execute: async ({ amount }, context, details) => inner.invoke(context!, JSON.stringify({ amount: amount + 1 }), details),
    });
    const model = new ScriptedModel([[functionCall('outer', { amount: 1 }, { callId: 'x1' })], [assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model, tools: [outer] }), 'go');
    expect(log).toEqual(['validate 2', 'execute {"amount":2,"currency":"EUR"}']);
  });

  it('resumed from the written state with arguments the schema refuses: the policy is not asked again, the call is answered as invalid', async () => {
    const log: string[] = [];
    const asked: unknown[] = [];
    const model = new ScriptedModel([[payCall('c1', { amount: 'lots' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [payTool(log, (_context, input) => (asked.push(input), true))] });
    const paused = await run(agent, 'pay');
    const state = await RunState.fromString(agent, paused.state.toString());
    state.approve(state.getInterruptions()[0]!);
    const done = await run(agent, state);
    expect(asked).toEqual([{ amount: 'lots' }]);
    expect(toolResultsOf(model.lastCall).map(outputText)).toEqual(['An error occurred while running the tool. Please try again.']);
    expect(done.finalOutput).toBe('done');
  });

  it('a tool replaced while the run was paused reads the arguments itself (the pause’s reading was its predecessor’s)', async () => {
    const before: string[] = [];
    const after: string[] = [];
    const asked: unknown[] = [];
    const policy = (_context: unknown, input: unknown) => (asked.push(input), true);
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [payTool(before, policy)] });
    const paused = await run(agent, 'pay');
    agent.tools = [payTool(after, policy)];
    paused.state.approve(paused.interruptions[0]!);
    await run(agent, paused.state);
    expect(before).toEqual(['validate 5']);
    expect(after).toEqual(['validate 5', 'execute {"amount":5,"currency":"EUR"}']);
    expect(asked).toHaveLength(2);
  });

  it('a policy given arguments that cannot be copied (a transform made a function) gets them as they are', async () => {
    const seen: unknown[] = [];
    const withHelper = tool({
      name: 'with_helper',
      description: '',
      parameters: z.object({ n: z.number() }).transform((value) => ({ ...value, double: () => value.n * 2 })),
      needsApproval: (_context, input) => (seen.push(input), false),
      execute: (input) => String(input.double()),
    });
    const model = new ScriptedModel([[functionCall('with_helper', { n: 4 }, { callId: 'h1' })], [assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model, tools: [withHelper] }), 'go');
    expect(seen).toHaveLength(1);
    expect((seen[0] as { double: () => number }).double()).toBe(8);
    expect(toolResultsOf(model.lastCall).map(outputText)).toEqual(['8']);
  });

  it('a call that needs no approval reads its arguments in its invocation: a call an input guardrail rejects is never validated', async () => {
    const log: string[] = [];
    const stop = { name: 'stop', run: async () => ({ behavior: { type: 'rejectContent', message: 'not allowed' } }) };
    const pay = tool({
      name: 'pay',
      description: '',
      parameters: countedSchema(log),
      inputGuardrails: [stop as never],
      execute: () => 'paid',
    });
    const model = new ScriptedModel([[payCall('c1')], [assistantMessage('done')]]);
    await run(new Agent({ name: 'A', model, tools: [pay] }), 'pay');
    expect(log).toEqual([]);
    expect(toolResultsOf(model.lastCall).map(outputText)).toEqual(['not allowed']);
  });
});

