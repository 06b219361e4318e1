import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, functionCall } from '@baton/testing';
import { OutputGuardrailTripwireTriggered } from '@baton/types';
import { Agent, RunState, run, tool, type ToolGuardrailFunctionOutput } from '../src/index.js';

const TOOL_SECRET = 'ledger row 7731';
const TOOL_INFO = 'tool guardrail saw 7731';
const AGENT_INFO = 'output guardrail saw 7731';

function ledgerAgent() {
  const toolVerdict: ToolGuardrailFunctionOutput = Object.freeze({ outputInfo: TOOL_INFO, behavior: Object.freeze({ type: 'allow' as const }) });
  const earlierVerdict: ToolGuardrailFunctionOutput = { outputInfo: 'earlier call info', behavior: { type: 'allow' } };
  const agentVerdict = Object.freeze({ outputInfo: AGENT_INFO, tripwireTriggered: true });
  const lookup = tool({
    name: 'lookup',
    description: '',
    parameters: z.object({}),
    outputGuardrails: [{ name: 'earlier check', run: () => earlierVerdict }],
    execute: () => 'ok',
  });
  const ledger = tool({
    name: 'ledger',
    description: '',
    parameters: z.object({}),
    outputGuardrails: [{ name: 'ledger check', run: () => ({ ...toolVerdict, extra: TOOL_SECRET }) as ToolGuardrailFunctionOutput }],
    execute: () => TOOL_SECRET,
  });
  const model = new ScriptedModel([[functionCall('lookup', {}, { callId: 'c1' })], [functionCall('ledger', {}, { callId: 'c2' })]]);
  const agent = new Agent({
    name: 'Ledger',
    model,
    tools: [lookup, ledger],
    toolUseBehavior: { stopAtToolNames: ['ledger'] },
    outputGuardrails: [{ name: 'no ledger rows', execute: async () => agentVerdict }],
  });
  return { agent, agentVerdict };
}

describe('an output guardrail blocking a tool output that was the final output', () => {
  it.each([false, true])('drops what the guardrails said about it, from the error and the state (stream=%s)', async (stream) => {
    const { agent, agentVerdict } = ledgerAgent();
    const error = await (stream ? run(agent, 'go', { stream: true }).then((r) => r.completed) : run(agent, 'go')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    const tripwire = error as OutputGuardrailTripwireTriggered;
    expect(tripwire.message).toBe('Output guardrail triggered.');
    expect(tripwire.result.agentOutput).toBe('Output withheld by an output guardrail.');
    expect(tripwire.result.output).toEqual({ tripwireTriggered: true, outputInfo: undefined });
    // The caller's (frozen) verdict is left as it was.
    expect(agentVerdict.outputInfo).toBe(AGENT_INFO);
    const state = tripwire.state as RunState<any, any>;
    expect(state.toolOutputGuardrailResults.map((r) => r.output.outputInfo)).toEqual(['earlier call info', undefined]);
    expect(state.toolOutputGuardrailResults[1]!.output).toEqual({ behavior: { type: 'allow' }, outputInfo: undefined });
    const serialized = state.toString();
    for (const secret of [TOOL_SECRET, TOOL_INFO, AGENT_INFO]) expect(serialized).not.toContain(secret);
  });
});

describe('an output guardrail verdict', () => {
  it('is read once, when the guardrail completes, and reported as read then', async () => {
    let reads = 0;
    const verdict = {
      outputInfo: AGENT_INFO,
      get tripwireTriggered() {
        reads += 1;
        if (reads > 1) throw new Error('read twice');
        return true;
      },
    };
    const ledger = tool({ name: 'ledger', description: '', parameters: z.object({}), execute: () => TOOL_SECRET });
    const agent = new Agent({
      name: 'Ledger',
      model: new ScriptedModel([[functionCall('ledger', {}, { callId: 'c1' })]]),
      tools: [ledger],
      toolUseBehavior: 'stop_on_first_tool',
      outputGuardrails: [{ name: 'once', execute: async () => verdict }],
    });
    const error = await run(agent, 'go').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(reads).toBe(1);
    expect((error as OutputGuardrailTripwireTriggered).result.output).toEqual({ tripwireTriggered: true, outputInfo: undefined });
  });
});
