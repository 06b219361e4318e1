import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, run, tool } from '../src/index.js';

const lookup = tool({ name: 'lookup', description: 'Looks a key up.', parameters: z.object({ key: z.string() }), execute: ({ key }) => `value of ${key}` });

describe('resetToolChoice after a tool was used', () => {
  it("clears a forced tool choice on the next turn, but keeps 'none' (set here by a hook to end tool use)", async () => {
    const model = new ScriptedModel([[functionCall('lookup', { key: 'a' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Chooser', model, tools: [lookup], modelSettings: { toolChoice: 'required' } });
    agent.on('agent_tool_end', () => {
      agent.modelSettings.toolChoice = 'none';
    });
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('done');
    expect(model.calls.map((call) => call.request.modelSettings.toolChoice)).toEqual(['required', 'none']);
  });

  it('drops a named or required tool choice once the agent used a tool', async () => {
    const model = new ScriptedModel([[functionCall('lookup', { key: 'a' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Forced', model, tools: [lookup], modelSettings: { toolChoice: 'lookup' } });
    await run(agent, 'go');
    expect(model.calls.map((call) => call.request.modelSettings.toolChoice)).toEqual(['lookup', undefined]);
  });
});
