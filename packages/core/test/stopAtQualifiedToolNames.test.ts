import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { GuardrailExecutionError, OutputGuardrailTripwireTriggered } from '@baton/types';
import { Agent, MemorySession, run, tool, toolNamespace } from '../src/index.js';

const SECRET = 'account 4412 balance';

function crmAgent(stopAtToolNames: string[], outputGuardrails: Agent<any, any>['outputGuardrails'] = []) {
  const [lookup] = toolNamespace({
    name: 'crm',
    description: 'CRM tools',
    tools: [tool({ name: 'lookup_account', description: '', parameters: z.object({}), execute: () => SECRET })],
  });
  const model = new ScriptedModel([[functionCall('lookup_account', {}, { callId: 'c1', namespace: 'crm' })], [assistantMessage('model answer')]]);
  const agent = new Agent({ name: 'CRM', model, tools: [lookup!], toolUseBehavior: { stopAtToolNames }, outputGuardrails });
  return { agent, model };
}

describe('stopAtToolNames and namespaced tools', () => {
  it.each([['the qualified name', 'crm.lookup_account'], ['the bare name', 'lookup_account']])('stops at a namespaced tool named by %s', async (_, name) => {
    const { agent, model } = crmAgent([name]);
    const result = await run(agent, 'look it up');
    expect(result.finalOutput).toBe(SECRET);
    expect(model.calls).toHaveLength(1);
    // The output item answers the call in its namespace, as the call item names it.
    expect(result.history.filter((item) => item.type === 'function_call' || item.type === 'function_call_result').map((item) => (item as { namespace?: string }).namespace)).toEqual(['crm', 'crm']);
  });

  it('does not stop at a namespaced tool named with another namespace', async () => {
    const { agent, model } = crmAgent(['billing.lookup_account']);
    const result = await run(agent, 'look it up');
    expect(result.finalOutput).toBe('model answer');
    expect(model.calls).toHaveLength(2);
  });

  it('a tripped guardrail withholds the namespaced output from the session, keeping the namespace on the items', async () => {
    const { agent, model } = crmAgent(['crm.lookup_account'], [{ name: 'block', execute: async () => ({ outputInfo: undefined, tripwireTriggered: true }) }]);
    const session = new MemorySession();
    await expect(run(agent, 'look it up', { session })).rejects.toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(model.calls).toHaveLength(1);
    const toolItems = (await session.getItems()).filter((item) => item.type === 'function_call' || item.type === 'function_call_result');
    expect(toolItems.map((item) => [item.type, (item as { namespace?: string }).namespace])).toEqual([
      ['function_call', 'crm'],
      ['function_call_result', 'crm'],
    ]);
    expect(JSON.stringify(toolItems)).not.toContain(SECRET);
  });

  it('the state of a failed guardrail check runs the check again on the same namespaced tool output, without a model call', async () => {
    let attempts = 0;
    const { agent, model } = crmAgent(['crm.lookup_account'], [
      {
        name: 'flaky',
        execute: async () => {
          attempts += 1;
          if (attempts === 1) throw new Error('guardrail down');
          return { outputInfo: undefined, tripwireTriggered: false };
        },
      },
    ]);
    const failure = await run(agent, 'look it up').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GuardrailExecutionError);
    const result = await run(agent, (failure as GuardrailExecutionError).state!);
    expect(result.finalOutput).toBe(SECRET);
    expect(model.calls).toHaveLength(1);
    expect(attempts).toBe(2);
  });
});
