import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// A `toolNamespace()` tool named in `stopAtToolNames` by its qualified (`crm.lookup_account`) or
// bare name ends the run on its output; the output item names the call's namespace; an output
// guardrail that blocks it leaves the session the calls, in their namespace, with a placeholder.

async function namespacedRun({ sdk, testing }: SdkUnderTest, stopAt: string, block: boolean) {
  const [lookup] = sdk.toolNamespace({
    name: 'crm',
    description: 'CRM tools',
    tools: [sdk.tool({ name: 'lookup_account', description: 'l', parameters: z.object({}), execute: async () => 'account secret' })],
  });
  const model = new testing.ScriptedModel([[testing.functionCall('lookup_account', {}, { callId: 'c1', namespace: 'crm' })], [testing.assistantMessage('model answer')]]);
  const agent = new sdk.Agent({
    name: 'CRM',
    model,
    tools: [lookup!],
    toolUseBehavior: { stopAtToolNames: [stopAt] },
    outputGuardrails: block ? [{ name: 'block', execute: async () => ({ outputInfo: undefined, tripwireTriggered: true }) }] : [],
  });
  const session = new sdk.MemorySession();
  const outcome = await outcomeOf(sdk.run(agent, 'look it up', { session }));
  const toolItems = (await session.getItems()).filter((item) => item.type === 'function_call' || item.type === 'function_call_result');
  return {
    outcome: outcome.ok ? { finalOutput: outcome.value.finalOutput } : outcome.name,
    modelCalls: model.calls.length,
    session: toolItems.map((item) => ({ type: item.type, name: (item as { name?: string }).name, namespace: (item as { namespace?: string }).namespace, output: (item as { output?: unknown }).output })),
  };
}

describe('stopAtToolNames with namespaced tools (same on both SDKs)', () => {
  it.each([
    ['the qualified name', 'crm.lookup_account', false],
    ['the bare name', 'lookup_account', false],
    ['another namespace', 'billing.lookup_account', false],
    ['the qualified name, blocked by an output guardrail', 'crm.lookup_account', true],
  ] as const)('%s', async (_label, stopAt, block) => {
    const both = await onBoth((under) => namespacedRun(under, stopAt, block));
    expect(both.baton).toEqual(both.reference);
    // Both calls reached the session in their namespace, whatever ended the run.
    expect(both.baton.session.map((item) => item.namespace)).toEqual(['crm', 'crm']);
  });
});
