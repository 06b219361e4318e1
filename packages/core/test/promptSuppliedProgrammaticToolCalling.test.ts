import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, ModelBehaviorError, Usage, run, tool, type ModelResponse } from '../src/index.js';

const fetchKey = tool({
  name: 'fetch_key',
  description: 'Returns the key it is given.',
  parameters: z.object({ key: z.string() }),
  allowedCallers: ['programmatic'],
  execute: async ({ key }) => `value of ${key}`,
});

const program = { type: 'program', id: 'prog_1', callId: 'call_prog', code: 'text(await tools.fetch_key({key:"a"}))', fingerprint: 'fp' };
const call = { type: 'function_call', id: 'fc_1', callId: 'call_fetch', name: 'fetch_key', arguments: '{"key":"a"}', caller: { type: 'program', callerId: 'call_prog' } };
const programDone = { type: 'program_output', id: 'prog_out_1', callId: 'call_prog', output: 'value of a', status: 'completed' };
const response = (output: unknown[]): ModelResponse => ({ output: output as ModelResponse['output'], usage: new Usage({ requests: 1 }) });

describe('Programmatic Tool Calling a prompt template supplies', () => {
  it('runs the program\'s calls when the agent has a prompt, without programmaticToolCallingTool()', async () => {
    const model = new ScriptedModel([response([program, call]), response([programDone, assistantMessage('finished')])]);
    const agent = new Agent({ name: 'Templated', model, prompt: { promptId: 'pmpt_with_ptc' }, tools: [fetchKey] });
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('finished');
    expect(result.newItems.map((item) => item.rawItem.type)).toEqual(['program', 'function_call', 'function_call_result', 'program_output', 'message']);
  });

  it('is refused without a prompt', async () => {
    const model = new ScriptedModel([response([program, call])]);
    const agent = new Agent({ name: 'Plain', model, tools: [fetchKey] });
    await expect(run(agent, 'go')).rejects.toThrow(ModelBehaviorError);
  });

  it('is refused when the agent explicitly offers no tools and no handoffs', async () => {
    const model = new ScriptedModel([response([program])]);
    const agent = new Agent({ name: 'NoTools', model, prompt: { promptId: 'pmpt_with_ptc' }, tools: [] });
    await expect(run(agent, 'go')).rejects.toThrow(/without programmaticToolCallingTool\(\) in Agent \(NoTools\)/);
  });
});
