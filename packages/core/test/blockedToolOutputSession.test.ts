import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  MemorySession,
  OutputGuardrailTripwireTriggered,
  run,
  tool,
  type AgentInputItem,
  type SessionHistoryTransactionArgs,
  type ToolUseBehavior,
} from '../src/index.js';

const blockEverything = { name: 'block', execute: async () => ({ outputInfo: undefined, tripwireTriggered: true }) };

/** Counts the two ways a session can be written to. */
class CountingSession extends MemorySession {
  appends = 0;
  transactions: SessionHistoryTransactionArgs[] = [];
  override async addItems(items: AgentInputItem[]): Promise<void> {
    this.appends += 1;
    await super.addItems(items);
  }
  override async applyHistoryTransaction(args: SessionHistoryTransactionArgs): Promise<void> {
    this.transactions.push(structuredClone(args));
    await super.applyHistoryTransaction(args);
  }
}

const secretTool = (name: string) => tool({ name, description: '', parameters: z.object({}), execute: async () => `${name} secret` });

describe('a tripped output guardrail on an output that came from tools', () => {
  it.each<[string, ToolUseBehavior]>([
    ['stop_on_first_tool', 'stop_on_first_tool'],
    ['stopAtToolNames', { stopAtToolNames: ['second'] }],
    ['a function', async (_context, results) => ({ isFinalOutput: true, finalOutput: String(results[1]?.output) })],
  ])('withholds every output of the turn (%s) and writes the session in one transaction', async (_name, toolUseBehavior) => {
    const model = new ScriptedModel([[functionCall('first', {}, { callId: 'a' }), functionCall('second', {}, { callId: 'b' })]]);
    const agent = new Agent({ name: 'A', model, tools: [secretTool('first'), secretTool('second')], toolUseBehavior, outputGuardrails: [blockEverything] });
    const session = new CountingSession();

    await expect(run(agent, 'go', { session })).rejects.toBeInstanceOf(OutputGuardrailTripwireTriggered);

    const items = await session.getItems();
    expect(items.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call', 'function_call_result', 'function_call_result']);
    expect(JSON.stringify(items)).not.toContain('secret');
    expect(items.filter((item) => item.type === 'function_call_result').map((item) => (item as { output: unknown }).output)).toEqual([
      'Output withheld by an output guardrail.',
      'Output withheld by an output guardrail.',
    ]);
    expect(session.appends).toBe(0);
    expect(session.transactions).toHaveLength(1);
  });

  it('drops a turn that held more than function calls, keeping only the input', async () => {
    const model = new ScriptedModel([[assistantMessage('a private remark'), functionCall('first', {}, { callId: 'a' })]]);
    const agent = new Agent({ name: 'A', model, tools: [secretTool('first')], toolUseBehavior: 'stop_on_first_tool', outputGuardrails: [blockEverything] });
    const session = new CountingSession();

    const failure = await run(agent, 'keep this question', { session }).catch((error: unknown) => error as OutputGuardrailTripwireTriggered);
    expect(failure).toBeInstanceOf(OutputGuardrailTripwireTriggered);

    expect(await session.getItems()).toEqual([{ type: 'message', role: 'user', content: 'keep this question' }]);
    expect(session.transactions).toHaveLength(1);
    // The state's run items lose the turn too (the model's response itself is kept as it came).
    const generated = JSON.stringify(JSON.parse(JSON.stringify(failure!.state)).generatedItems);
    expect(generated).toBe('[]');
  });

  it('keeps tool outputs when the guardrail passes', async () => {
    const model = new ScriptedModel([[functionCall('first', {}, { callId: 'a' })]]);
    const pass = { name: 'pass', execute: async () => ({ outputInfo: undefined, tripwireTriggered: false }) };
    const agent = new Agent({ name: 'A', model, tools: [secretTool('first')], toolUseBehavior: 'stop_on_first_tool', outputGuardrails: [pass] });
    const session = new CountingSession();
    await run(agent, 'go', { session });
    expect(JSON.stringify(await session.getItems())).toContain('first secret');
    expect(session.transactions).toHaveLength(0);
  });
});
