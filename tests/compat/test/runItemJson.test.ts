import { describe, expect, it } from 'vitest';
import { onBoth } from './sdks.js';

// The JSON of run items a program logs or stores is the same on both SDKs: a handoff's output
// names its two agents (not a third `agent`), an approval carries its function tool's state key.

describe('run item JSON', () => {
  it('a handoff output and a tool approval serialize alike', async () => {
    const { reference, baton } = await onBoth(async ({ sdk }) => {
      const source = new sdk.Agent({ name: 'Source' });
      const target = new sdk.Agent({ name: 'Target' });
      const handoff = new sdk.RunHandoffOutputItem(
        { type: 'function_call_result', callId: 'c1', name: 'transfer_to_Target', status: 'completed', output: { type: 'text', text: '{"assistant":"Target"}' } },
        source,
        target,
      );
      const plain = new sdk.RunToolApprovalItem({ type: 'function_call', callId: 'c2', name: 'pay', arguments: '{}', status: 'completed' }, source);
      const namespaced = new sdk.RunToolApprovalItem({ type: 'function_call', callId: 'c3', name: 'lookup', namespace: 'crm', arguments: '{}', status: 'completed' }, source);
      return JSON.parse(JSON.stringify({ handoff, plain, namespacedKey: namespaced.toJSON().functionToolStateKey }));
    });
    expect(baton).toEqual(reference);
    expect(baton.plain.functionToolStateKey).toBe('["bare","pay"]');
    expect(baton.namespacedKey).toBe('["namespaced","crm","lookup"]');
  });
});
