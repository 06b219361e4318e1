import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunState, RunStateError, run, tool } from '../src/index.js';
import { resultText } from './helpers.js';

// What RunState.toString writes, RunState.fromString reads: a state the reader would refuse is
// never written (the reader's limit: 200 levels of objects and arrays, no `__proto__` keys).
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { d: value } : [value];
  return value;
}

function pausedAfter(output: unknown, context: unknown = {}) {
  const source = tool({ name: 'source', description: '', parameters: z.object({}), execute: async () => output });
  const gated = tool({ name: 'gated', description: '', parameters: z.object({}), needsApproval: true, execute: async () => 'ok' });
  const model = new ScriptedModel([[functionCall('source', {}, { callId: 's1' })], [functionCall('gated', {}, { callId: 'g1' })], [assistantMessage('done')]]);
  const agent = new Agent({ name: 'A', model, tools: [source, gated] });
  return { agent, model, result: run(agent, 'go', { context }) };
}

describe('a paused state Baton writes is one it reads', () => {
  it('keeps a tool output nested deeper than the limit as the JSON text the model received, and the state reads back', async () => {
    const deep = nested(300);
    const { agent, model, result } = pausedAfter(deep);
    const paused = await result;
    expect(paused.interruptions).toHaveLength(1);
    const restored = await RunState.fromString(agent, paused.state.toString());
    const item = (restored as unknown as { _generatedItems: Array<{ type: string; output: unknown }> })._generatedItems.find((entry) => entry.type === 'tool_call_output_item');
    expect(item?.output).toBe(JSON.stringify(deep));
    expect(item?.output).toBe(resultText(model.calls[1]!, 's1'));
  });

  // 193 levels: the innermost object 192 deep, the reader's 200 levels less the 8 the writer keeps for where an output sits.
  it.each([150, 193])('keeps a tool output nested %i levels (within the limit) as the value the tool returned', async (levels) => {
    const shallow = nested(levels);
    const { agent, result } = pausedAfter(shallow);
    const restored = await RunState.fromString(agent, (await result).state.toString());
    const item = (restored as unknown as { _generatedItems: Array<{ type: string; output: unknown }> })._generatedItems.find((entry) => entry.type === 'tool_call_output_item');
    expect(item?.output).toEqual(shallow);
  });

  it('refuses to write a context nested deeper than the reader reads, naming where (objects and arrays alike)', async () => {
    for (const context of [{ deep: nested(250) }, { list: [nested(199)] }]) {
      const { result } = pausedAfter('x', context);
      const paused = await result;
      let error: unknown;
      try {
        paused.state.toString();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(RunStateError);
      expect((error as RunStateError).reason).toBe('too_deep');
      expect((error as Error).message).toMatch(/^RunState\.toString: the state could not be read back, so it is not written: Invalid run state: nested deeper than 200 levels at \$\.context\.context\./);
    }
  });

  it('writes a context at the limit, and reads it back', async () => {
    // $.context.context is level 2: a value 198 levels deep under it ends at level 200.
    const { agent, result } = pausedAfter('x', { v: nested(197) });
    const text = (await result).state.toString();
    await expect(RunState.fromString(agent, text)).resolves.toBeInstanceOf(RunState);
  });

  it('refuses to write a `__proto__` key a tool put in the context, as the reader would refuse it', async () => {
    const { result } = pausedAfter('x', JSON.parse('{"profile":{"__proto__":{"admin":true}}}'));
    const paused = await result;
    expect(() => paused.state.toString()).toThrow(/could not be read back.*"__proto__" key at \$\.context\.context\.profile\.__proto__/);
  });
});
