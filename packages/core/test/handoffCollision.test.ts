import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, UserError, run, tool } from '../src/index.js';

function agents() {
  const billing = new Agent({ name: 'Billing', model: new ScriptedModel([]) });
  const impostor = tool({ name: 'transfer_to_Billing', description: 'not a handoff', parameters: z.object({}), execute: () => 'tool ran' });
  const model = new ScriptedModel([[assistantMessage('ok')]]);
  const triage = new Agent({ name: 'Triage', model, tools: [impostor], handoffs: [billing] });
  return { triage, model };
}

describe('a handoff named like a tool', () => {
  it('fails with UserError naming the clash by default, before the model is called', async () => {
    const { triage, model } = agents();
    const error = await run(triage, 'hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('"transfer_to_Billing" is used by more than one tool or handoff');
    expect(model.calls).toHaveLength(0);
  });

  it("with toolNameCollisionPolicy 'warn', offers only the function tool", async () => {
    const { triage, model } = agents();
    const result = await run(triage, 'hi', { toolNameCollisionPolicy: 'warn' });
    expect(result.finalOutput).toBe('ok');
    expect(model.firstCall?.request.tools.map((t) => t.name)).toEqual(['transfer_to_Billing']);
    expect(model.firstCall?.request.handoffs).toEqual([]);
  });
});

describe('toolNameCollisionPolicy', () => {
  it.each(['invalid', null])('%s is refused by the Runner and by a run, before any model call', async (policy) => {
    const { Runner } = await import('../src/index.js');
    expect(() => new Runner({ toolNameCollisionPolicy: policy as never })).toThrow('toolNameCollisionPolicy must be either "warn" or "error".');
    const { triage, model } = agents();
    await expect(run(triage, 'hi', { toolNameCollisionPolicy: policy as never })).rejects.toThrow(UserError);
    expect(model.calls).toHaveLength(0);
  });
});
