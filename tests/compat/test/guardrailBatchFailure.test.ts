import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// Guardrail batches that fail: which error the run rejects with when guardrails of one batch trip
// and throw together, what a guardrail's own thrown tripwire becomes, what the session keeps, and
// what a failed session save adds to the error. The same program on both SDKs, a table of cases.

const SECRET = 'row 7731';

type Verdict = 'pass' | 'trip' | 'throw' | 'throwOwnTripwire' | 'tripCircular' | 'passCircular';
interface Case {
  readonly kind: 'input' | 'output';
  readonly guardrails: readonly Verdict[];
  readonly final?: 'message' | 'tool';
  readonly sessionFails?: boolean;
  readonly stream?: boolean;
}

async function guardedRun({ sdk, testing }: SdkUnderTest, c: Case) {
  const own = c.kind === 'input'
    ? new sdk.InputGuardrailTripwireTriggered('thrown by the guardrail', { guardrail: { type: 'input', name: 'own' }, output: { tripwireTriggered: true, outputInfo: 'own' } } as never)
    : new sdk.OutputGuardrailTripwireTriggered('thrown by the guardrail', { guardrail: { type: 'output', name: 'own' }, agentOutput: 'x', output: { tripwireTriggered: true, outputInfo: 'own' } } as never);
  const guardrails = c.guardrails.map((verdict, i) => ({
    name: `g${i}-${verdict}`,
    execute: async () => {
      if (verdict === 'throw') throw new Error(`guardrail ${i} saw ${SECRET}`);
      if (verdict === 'throwOwnTripwire') throw own;
      if (verdict === 'tripCircular' || verdict === 'passCircular') {
        const circular: Record<string, unknown> = { note: `info ${i}` };
        circular.self = circular;
        return { tripwireTriggered: verdict === 'tripCircular', outputInfo: circular };
      }
      return { tripwireTriggered: verdict === 'trip', outputInfo: `info ${i}` };
    },
  }));
  const ledger = sdk.tool({ name: 'ledger', description: 'l', parameters: z.object({}), execute: async () => SECRET });
  const script = c.final === 'tool' ? [[testing.functionCall('ledger', {}, { callId: 'c1' })]] : [[testing.assistantMessage(`the answer is ${SECRET}`)]];
  const agent = new sdk.Agent({
    name: 'A',
    model: new testing.ScriptedModel(script),
    tools: [ledger],
    toolUseBehavior: c.final === 'tool' ? 'stop_on_first_tool' : 'run_llm_again',
    ...(c.kind === 'input' ? { inputGuardrails: guardrails } : { outputGuardrails: guardrails }),
  } as never);
  class FailingSession extends sdk.MemorySession {
    override async applyHistoryTransaction(): Promise<void> {
      throw new Error(`save failed near ${SECRET}`);
    }
    override async addItems(): Promise<void> {
      throw new Error(`save failed near ${SECRET}`);
    }
  }
  const session = c.sessionFails ? new FailingSession() : new sdk.MemorySession();
  const outcome = await outcomeOf(
    (async () => {
      if (!c.stream) return sdk.run(agent, 'go', { session });
      const streamed = await sdk.run(agent, 'go', { session, stream: true });
      for await (const _event of streamed) void _event;
      await streamed.completed;
      return streamed;
    })(),
  );
  const error = outcome.ok ? undefined : (outcome.error as Error & { cause?: unknown; error?: Error; result?: { guardrail: { name: string } } });
  const cause = error?.cause;
  return {
    error: outcome.ok ? 'none' : outcome.name,
    isOwnTripwire: error === own,
    tripwireGuardrail: error === own ? 'own' : error?.result?.guardrail.name,
    // Baton names the failing guardrail in a GuardrailExecutionError's message (a documented difference): compare what both carry.
    errorMentions: error ? { secret: error.message.includes(SECRET), innerSecret: error.error?.message.includes(SECRET) ?? null } : null,
    cause: cause === undefined ? 'none' : cause instanceof Error ? { message: cause.message } : typeof cause,
    session: c.sessionFails ? 'failing' : (await session.getItems()).map((item) => (item as { type?: string }).type ?? (item as { role?: string }).role),
  };
}

describe('guardrail batches that fail (same on both SDKs)', () => {
  it.each<[string, Case]>([
    ['input: a trip, then a guardrail that throws', { kind: 'input', guardrails: ['trip', 'throw'] }],
    ['input: a guardrail that throws, then a trip', { kind: 'input', guardrails: ['throw', 'trip'] }],
    ['input: a guardrail throwing its own tripwire', { kind: 'input', guardrails: ['pass', 'throwOwnTripwire'] }],
    ['output, a message: a trip, then a guardrail that throws', { kind: 'output', guardrails: ['trip', 'throw'], final: 'message' }],
    ['output, a message: a guardrail that throws', { kind: 'output', guardrails: ['pass', 'throw'], final: 'message' }],
    ['output, a message: a guardrail throwing its own tripwire', { kind: 'output', guardrails: ['throwOwnTripwire'], final: 'message' }],
    ['output, a message: a trip, the session fails to save', { kind: 'output', guardrails: ['trip'], final: 'message', sessionFails: true }],
    ['output, a message: a throw, the session fails to save', { kind: 'output', guardrails: ['throw'], final: 'message', sessionFails: true }],
    ['output, a tool output: a trip, then a guardrail that throws', { kind: 'output', guardrails: ['trip', 'throw'], final: 'tool' }],
    ['output, a tool output: a guardrail that throws, none trip', { kind: 'output', guardrails: ['pass', 'throw'], final: 'tool' }],
    ['output, a tool output: a trip and a guardrail throwing its own tripwire', { kind: 'output', guardrails: ['trip', 'throwOwnTripwire'], final: 'tool' }],
    ['output, a tool output: a guardrail throwing its own tripwire, none trip', { kind: 'output', guardrails: ['throwOwnTripwire'], final: 'tool' }],
    ['output, a tool output: a trip, the session fails to save', { kind: 'output', guardrails: ['trip'], final: 'tool', sessionFails: true }],
    ['output, a tool output: a trip and a throw, the session fails to save', { kind: 'output', guardrails: ['trip', 'throw'], final: 'tool', sessionFails: true }],
    ['input: a trip whose outputInfo JSON cannot carry', { kind: 'input', guardrails: ['tripCircular'] }],
    ['input: a pass whose outputInfo JSON cannot carry', { kind: 'input', guardrails: ['passCircular'] }],
    ['output, a message: a trip whose outputInfo JSON cannot carry', { kind: 'output', guardrails: ['tripCircular'], final: 'message' }],
    ['output, a tool output: a trip whose outputInfo JSON cannot carry', { kind: 'output', guardrails: ['tripCircular'], final: 'tool' }],
    ['streamed, output, a tool output: a trip, then a guardrail that throws', { kind: 'output', guardrails: ['trip', 'throw'], final: 'tool', stream: true }],
    ['streamed, output, a tool output: a trip, the session fails to save', { kind: 'output', guardrails: ['trip'], final: 'tool', sessionFails: true, stream: true }],
  ])('%s', async (_label, c) => {
    const both = await onBoth((under) => guardedRun(under, c));
    expect(both.baton).toEqual(both.reference);
  });
});
