import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, run, tool, type HandoffEnabledFunction } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { handoff } from '../src/index.js';

type Ctx = { tier: 'vip' | 'basic'; verified?: boolean };

function offeredIn(model: ScriptedModel, call = 0): string[] {
  return model.calls[call]!.request.handoffs.map((h) => h.toolName);
}

function triageWith(isEnabled: boolean | HandoffEnabledFunction<Ctx>) {
  const vip = new Agent<Ctx>({ name: 'VIP desk' });
  const basic = new Agent<Ctx>({ name: 'Help desk' });
  const model = new ScriptedModel([[assistantMessage('hello')]]);
  const triage = new Agent<Ctx>({ name: 'Triage', model, handoffs: [handoff(vip, { isEnabled }), basic] });
  return { triage, model };
}

describe('isEnabled', () => {
  it.each([
    [true, ['transfer_to_VIP_desk', 'transfer_to_Help_desk']],
    [false, ['transfer_to_Help_desk']],
  ])('as the boolean %s offers or hides the handoff', async (isEnabled, offered) => {
    const { triage, model } = triageWith(isEnabled);
    await run(triage, 'hi', { context: { tier: 'basic' } });
    expect(offeredIn(model)).toEqual(offered);
  });

  it('as a predicate of the run context decides per run', async () => {
    const seen: string[] = [];
    const predicate: HandoffEnabledFunction<Ctx> = ({ runContext, agent }) => {
      seen.push(agent.name);
      return runContext.context.tier === 'vip';
    };
    const vipRun = triageWith(predicate);
    await run(vipRun.triage, 'hi', { context: { tier: 'vip' } });
    const basicRun = triageWith(predicate);
    await run(basicRun.triage, 'hi', { context: { tier: 'basic' } });
    expect(offeredIn(vipRun.model)).toEqual(['transfer_to_VIP_desk', 'transfer_to_Help_desk']);
    expect(offeredIn(basicRun.model)).toEqual(['transfer_to_Help_desk']);
    expect(seen).toEqual(['Triage', 'Triage']);
  });

  it('may be async, and its result is coerced to a boolean', async () => {
    const asyncNo = triageWith(async () => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return false;
    });
    await run(asyncNo.triage, 'hi', { context: { tier: 'vip' } });
    expect(offeredIn(asyncNo.model)).toEqual(['transfer_to_Help_desk']);

    const truthy = triageWith((() => 'yes') as never);
    await run(truthy.triage, 'hi', { context: { tier: 'basic' } });
    expect(offeredIn(truthy.model)).toContain('transfer_to_VIP_desk');
    const h = handoff(new Agent({ name: 'X' }), { isEnabled: (() => 'yes') as never });
    await expect(h.isEnabled({ runContext: {} as never, agent: new Agent({ name: 'Y' }) })).resolves.toBe(true);
  });

  it('is evaluated every turn', async () => {
    const verify = tool({
      name: 'verify',
      description: 'Verify the customer',
      parameters: z.object({}),
      execute: (_input, runContext) => {
        (runContext.context as Ctx).verified = true;
        return 'verified';
      },
    });
    const account = new Agent<Ctx>({ name: 'Account', model: new ScriptedModel([[assistantMessage('account here')]]) });
    const model = new ScriptedModel([[functionCall('verify', {})], [functionCall('transfer_to_Account', {})]]);
    const triage = new Agent<Ctx>({
      name: 'Triage',
      model,
      tools: [verify],
      handoffs: [handoff(account, { isEnabled: ({ runContext }) => runContext.context.verified === true })],
    });
    const result = await run(triage, 'change my address', { context: { tier: 'basic' } });
    expect(offeredIn(model, 0)).toEqual([]);
    expect(offeredIn(model, 1)).toEqual(['transfer_to_Account']);
    expect(result.finalOutput).toBe('account here');
  });

  it('a disabled handoff the model calls anyway does not switch agents', async () => {
    const { triage } = triageWith(false);
    const model = new ScriptedModel([[functionCall('transfer_to_VIP_desk', {})], [assistantMessage('still triage')]]);
    const agent = triage.clone({ model });
    const result = await run(agent, 'hi', { context: { tier: 'basic' } });
    expect(result.lastAgent).toBe(agent);
    expect(result.newItems.some((item) => item.type === 'handoff_output_item')).toBe(false);
  });
});
