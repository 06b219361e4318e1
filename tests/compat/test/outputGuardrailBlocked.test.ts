import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// An output guardrail that blocks a final output: what the session, the error's state and the
// error keep afterwards. A tool output made final by toolUseBehavior is replaced by a data-free
// placeholder (`outputGuardrailBlockedMessage`); a blocked answer never reaches the session.

type Final = 'tool' | 'stopAt' | 'message';

async function blockedRun({ sdk, testing }: SdkUnderTest, final: Final, blockedMessage?: unknown, stream = false) {
  const secret = sdk.tool({ name: 'secret', description: 's', parameters: z.object({}), execute: () => 'SSN 123-45' });
  const guard = { name: 'no_ssn', execute: async ({ agentOutput }: { agentOutput: unknown }) => ({ tripwireTriggered: String(agentOutput).includes('SSN'), outputInfo: 'found' }) };
  const script = final === 'message' ? [[testing.assistantMessage('Your SSN is 123-45')]] : [[testing.functionCall('secret', {}, { callId: 'c1' })]];
  const toolUseBehavior = final === 'tool' ? 'stop_on_first_tool' : final === 'stopAt' ? { stopAtToolNames: ['secret'] } : 'run_llm_again';
  const agent = new sdk.Agent({ name: 'A', model: new testing.ScriptedModel(script), tools: [secret], toolUseBehavior: toolUseBehavior as never, outputGuardrails: [guard] });
  const session = new sdk.MemorySession();
  const options = { session, ...(blockedMessage !== undefined ? { outputGuardrailBlockedMessage: blockedMessage } : {}) } as never;
  const outcome = await outcomeOf(
    (async () => {
      if (!stream) return sdk.run(agent, 'go', options);
      const streamed = await sdk.run(agent, 'go', { ...(options as object), stream: true } as never);
      for await (const _event of streamed) void _event;
      await streamed.completed;
      return streamed;
    })(),
  );
  const error = outcome.ok ? undefined : (outcome.error as { state?: { toString(): string }; result?: { agentOutput?: unknown } });
  const stored = error?.state ? (JSON.parse(error.state.toString()) as { generatedItems: Array<{ type: string; rawItem: { output?: unknown } }>; outputGuardrailResults: Array<{ agentOutput: unknown }> }) : undefined;
  return {
    error: outcome.ok ? 'none' : outcome.name,
    session: (await session.getItems()).map((item) => (item as { output?: unknown }).output ?? (item as { content?: unknown }).content),
    stateOutputs: stored?.generatedItems.filter((item) => item.type === 'tool_call_output_item').map((item) => item.rawItem.output),
    guardrailOutputs: stored?.outputGuardrailResults.map((result) => result.agentOutput),
    errorOutput: error?.result?.agentOutput,
  };
}

describe('outputGuardrailBlockedMessage (same on both SDKs)', () => {
  it.each([
    ['stop_on_first_tool, default placeholder', 'tool', undefined],
    ['stopAtToolNames, a string', 'stopAt', 'Withheld.'],
    ['a formatter', 'tool', ({ guardrailName, agent }: { guardrailName: string; agent: { name: string } }) => `${guardrailName} blocked ${agent.name}`],
    ['a formatter that throws gives the default', 'tool', () => {
      throw new Error('bad formatter');
    }],
    ['a blocked answer (a message) never reaches the session', 'message', undefined],
  ] as const)('%s', async (_label, final, blocked) => {
    const both = await onBoth((under) => blockedRun(under, final as Final, blocked));
    expect(both.baton).toEqual(both.reference);
    expect(JSON.stringify(both.baton.session)).not.toContain('SSN');
  });

  it('streamed runs withhold it too', async () => {
    const both = await onBoth((under) => blockedRun(under, 'tool', undefined, true));
    expect(both.baton).toEqual(both.reference);
    expect(JSON.stringify(both.baton)).not.toContain('SSN');
  });
});
