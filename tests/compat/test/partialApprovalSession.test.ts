import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, type SdkUnderTest } from './sdks.js';

// A run that pauses on a turn whose output its output guardrails have yet to see (the tools may give
// the answer, and the turn already holds output: a hosted tool's result, or a call a partial
// approval ran) writes nothing of that turn to its session until the turn completes; a streamed run
// writes its input, a plain one nothing. The same program on both SDKs, a table of cases; the
// session is compared after each of the three runs (pause, partial approval, completion). (A state
// written while its turn is held is refused by the reference on resume; Baton resumes it and writes
// what the session lacks: packages/core/test/heldPausedTurnSession.test.ts.)

interface Case {
  name: string;
  stream: boolean;
  guardrail: 'agent' | 'runner' | 'none';
  behavior: 'stop_on_first_tool' | 'run_llm_again' | 'stopAt';
  hosted: boolean;
  toolTurnFirst: boolean;
}

const base: Case = { name: '', stream: false, guardrail: 'agent', behavior: 'stop_on_first_tool', hosted: true, toolTurnFirst: false };
const CASES: Case[] = [
  { ...base, name: 'hosted item, agent guardrail, stop on first tool' },
  { ...base, name: 'streamed', stream: true },
  { ...base, name: 'function calls only', hosted: false },
  { ...base, name: 'run_llm_again', behavior: 'run_llm_again' },
  { ...base, name: 'no output guardrail', guardrail: 'none' },
  { ...base, name: 'runner guardrail', guardrail: 'runner' },
  { ...base, name: 'stopAtToolNames', behavior: 'stopAt' },
  { ...base, name: 'a tool turn before the paused one', toolTurnFirst: true, behavior: 'stopAt' },
  { ...base, name: 'a tool turn before, streamed', toolTurnFirst: true, stream: true, behavior: 'stopAt' },
];

function shape(item: any): string {
  if (item.type === 'message' || item.role !== undefined) {
    const content = typeof item.content === 'string' ? item.content : (item.content ?? []).map((part: any) => part.text ?? part.type).join('|');
    return `${item.role}: ${content}`;
  }
  if (item.type === 'function_call') return `call ${item.name} ${item.callId}`;
  if (item.type === 'function_call_result') return `result ${item.callId} ${JSON.stringify(item.output)}`;
  return item.type + (item.name ? ` ${item.name}` : '');
}

async function runCase({ sdk, testing }: SdkUnderTest, c: Case) {
  const session = new sdk.MemorySession();
  const approval = (name: string) => sdk.tool({ name, description: name, parameters: z.object({}), needsApproval: true, execute: async () => `${name} out` });
  const step = sdk.tool({ name: 'step', description: 'A step.', parameters: z.object({}), execute: async () => 'stepped' });
  const output = [testing.functionCall('first', {}, { callId: 'c1' }), testing.functionCall('second', {}, { callId: 'c2' })] as any[];
  if (c.hosted) output.push({ type: 'hosted_tool_call', name: 'file_search_call', status: 'completed', providerData: { type: 'file_search_call', queries: ['q'], results: [] } });
  const turns = [output, [testing.assistantMessage('done')]] as any[];
  if (c.toolTurnFirst) turns.unshift([testing.functionCall('step', {}, { callId: 's1' })]);
  const model = new testing.ScriptedModel(turns as never);
  const guardrail = { name: 'g', execute: async () => ({ outputInfo: undefined, tripwireTriggered: false }) };
  const agent = new sdk.Agent({
    name: 'A',
    model,
    tools: [approval('first'), approval('second'), step],
    toolUseBehavior: c.behavior === 'stopAt' ? { stopAtToolNames: ['first', 'second'] } : c.behavior,
    outputGuardrails: c.guardrail === 'agent' ? [guardrail] : [],
  });
  const runner = new sdk.Runner(c.guardrail === 'runner' ? { outputGuardrails: [guardrail] } : {});
  const once = async (input: any) => {
    if (!c.stream) return runner.run(agent, input, { session });
    const result: any = await runner.run(agent, input, { session, stream: true });
    for await (const _ of result);
    await result.completed;
    return result;
  };
  const sessionNow = async () => (await session.getItems()).map(shape);
  const first: any = await once('go');
  const afterFirst = await sessionNow();
  const pausedOnce = first.state;
  pausedOnce.approve(pausedOnce.getInterruptions()[0]);
  const partial: any = await once(pausedOnce);
  const afterPartial = await sessionNow();
  const pausedTwice = partial.state;
  pausedTwice.approve(pausedTwice.getInterruptions()[0]);
  const done: any = await once(pausedTwice);
  return { afterFirst, afterPartial, afterDone: await sessionNow(), finalOutput: done.finalOutput };
}

describe('partial approvals and the session', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const { reference, baton } = await onBoth((under) => runCase(under, c));
      expect(baton).toEqual(reference);
    });
  }
});
