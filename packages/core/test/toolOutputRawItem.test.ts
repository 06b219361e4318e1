import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunContext, RunState, Runner, run, tool, toolNamespace } from '../src/index.js';

// The raw output item a function call leaves: exactly the reference's fields, in its order; a
// `namespace` and a `caller` only when the call had them (never a key holding undefined, which a
// strict comparison or `in` would see).

describe('a function call output raw item', () => {
  it('an answered call: type, name, callId, status, output, and nothing else', async () => {
    const echo = tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'e1' })], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [echo] }), 'go');
    const item = result.newItems.find((candidate) => candidate.type === 'tool_call_output_item')!;
    expect(Object.keys(item.rawItem)).toEqual(['type', 'name', 'callId', 'status', 'output']);
    expect(item.rawItem).toEqual({ type: 'function_call_result', name: 'echo', callId: 'e1', status: 'completed', output: { type: 'text', text: 'hi' } });
  });

  it('a call the caller cancelled: the same fields, `aborted` and incomplete', async () => {
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
    await expect(new Runner().run(agent, state, { signal: controller.signal })).rejects.toBeDefined();
    const item = state.generatedItems.find((candidate) => candidate.type === 'tool_call_output_item')!;
    expect(Object.keys(item.rawItem)).toEqual(['type', 'name', 'callId', 'status', 'output']);
    expect(item.rawItem).toEqual({ type: 'function_call_result', name: 'waiter', callId: 'w1', status: 'incomplete', output: { type: 'text', text: 'aborted' } });
  });

  it('a call in a namespace keeps it, after the name', async () => {
    const [echo] = toolNamespace({ name: 'tools', description: 'Echoing tools', tools: [tool({ name: 'echo', description: '', parameters: z.object({}), execute: () => 'ok' })] });
    const model = new ScriptedModel([[{ ...functionCall('echo', {}, { callId: 'n1' }), namespace: 'tools' } as never], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [echo!] }), 'go');
    const item = result.newItems.find((candidate) => candidate.type === 'tool_call_output_item')!;
    expect(Object.keys(item.rawItem)).toEqual(['type', 'name', 'namespace', 'callId', 'status', 'output']);
    expect(item.rawItem).toMatchObject({ name: 'echo', namespace: 'tools', output: { type: 'text', text: 'ok' } });
  });
});
