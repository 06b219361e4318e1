// The core README's step runner contract: a guardrail function is a step of kind 'guardrail'
// (what a durable engine records and replays), for an agent's guardrails and a tool's alike.
import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, Runner, tool, type StepRunner } from '../src/index.js';

function kindsRecorder(): { runner: StepRunner; kinds: Map<string, string> } {
  const kinds = new Map<string, string>();
  return { kinds, runner: { runStep: (step, effect) => Effect.suspend(() => (kinds.set(step.key, step.kind), effect)) } };
}

describe('guardrail steps', () => {
  it('an agent’s input and output guardrails and a tool’s guardrails run as steps of kind guardrail', async () => {
    const allow = { name: 'tool_check', run: () => ({ behavior: { type: 'allow' as const } }) };
    const lookup = tool({ name: 'lookup', description: '', parameters: z.object({}), execute: () => 'row', inputGuardrails: [allow], outputGuardrails: [allow] });
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([[functionCall('lookup', {}, { callId: 'c1' })], [assistantMessage('done')]]),
      tools: [lookup],
      inputGuardrails: [{ name: 'in_check', execute: async () => ({ tripwireTriggered: false }) }],
      outputGuardrails: [{ name: 'out_check', execute: async () => ({ tripwireTriggered: false }) }],
    });
    const { runner, kinds } = kindsRecorder();
    await new Runner({ stepRunner: runner }).run(agent, 'go');
    const guardrailSteps = [...kinds].filter(([, kind]) => kind === 'guardrail').map(([key]) => key);
    expect(guardrailSteps.sort()).toEqual(['t1:guardrail:input:in_check', 't2:guardrail:output:out_check', 'tool:c1:guardrail:input:tool_check', 'tool:c1:guardrail:output:tool_check']);
  });
});
