// A run that pauses on a turn its output guardrails have yet to see writes nothing of that turn to
// its session until the turn completes, as the reference does (a streamed run writes its input, a
// plain one nothing): a tool output or hosted result a guardrail may withhold never reaches the
// session before the verdict. What the session lacks survives a state written and read back.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { OutputGuardrailTripwireTriggered, RunStateError } from '@baton/types';
import { Agent, MemorySession, RunState, Runner, tool, type AgentInputItem, type OutputGuardrail } from '../src/index.js';

const pass: OutputGuardrail = { name: 'pass', execute: async () => ({ tripwireTriggered: false, outputInfo: null }) };
const hosted = { type: 'hosted_tool_call', name: 'file_search_call', status: 'completed', providerData: { type: 'file_search_call', queries: ['q'], results: [] } };

function shape(item: AgentInputItem): string {
  const it = item as { type?: string; role?: string; callId?: string; name?: string };
  if (it.role !== undefined) return `${it.role}`;
  if (it.type === 'function_call') return `call ${it.callId}`;
  if (it.type === 'function_call_result') return `result ${it.callId}`;
  return `${it.type}`;
}

interface Setup {
  stream?: boolean;
  behavior?: 'stop_on_first_tool' | 'run_llm_again';
  guardrails?: 'agent' | 'runner' | 'none';
  withHosted?: boolean;
}

function setup({ behavior = 'stop_on_first_tool', guardrails = 'agent', withHosted = true }: Setup) {
  const approval = (name: string) => tool({ name, description: name, parameters: z.object({}), needsApproval: true, execute: async () => `${name} out` });
  const output: unknown[] = [functionCall('first', {}, { callId: 'c1' }), functionCall('second', {}, { callId: 'c2' })];
  if (withHosted) output.push(hosted);
  const model = new ScriptedModel([output as never, [assistantMessage('done')]]);
  const agent = new Agent({ name: 'A', model, tools: [approval('first'), approval('second')], toolUseBehavior: behavior, outputGuardrails: guardrails === 'agent' ? [pass] : [] });
  const runner = new Runner(guardrails === 'runner' ? { outputGuardrails: [pass] } : {});
  return { agent, runner };
}

async function runOnce(runner: Runner, agent: Agent<any, any>, input: string | RunState<any, any>, session: MemorySession, stream: boolean) {
  if (!stream) return runner.run(agent, input, { session });
  const result = await runner.run(agent, input, { session, stream: true });
  for await (const _ of result);
  await result.completed;
  return result;
}

describe.each([false, true])('a paused turn held from the session (stream=%s)', (stream) => {
  const kept = (items: AgentInputItem[]) => items.map(shape);
  const input = stream ? ['user'] : [];

  it.each(['agent', 'runner'] as const)('with %s output guardrails: nothing of the turn until it completes, then all of it in order', async (guardrails) => {
    const { agent, runner } = setup({ guardrails });
    const session = new MemorySession();
    const first = await runOnce(runner, agent, 'go', session, stream);
    expect(kept(await session.getItems())).toEqual(input);
    first.state.approve(first.interruptions[0]!);
    const partial = await runOnce(runner, agent, first.state, session, stream);
    expect(partial.interruptions).toHaveLength(1);
    expect(kept(await session.getItems())).toEqual(input);
    partial.state.approve(partial.interruptions[0]!);
    const done = await runOnce(runner, agent, partial.state, session, stream);
    expect(done.finalOutput).toBe('second out');
    expect(kept(await session.getItems())).toEqual(['user', 'call c1', 'call c2', 'hosted_tool_call', 'result c1', 'result c2']);
  });

  it('a state written while held and read back gives the session what it lacks once the turn completes', async () => {
    const { agent, runner } = setup({});
    const session = new MemorySession();
    const first = await runOnce(runner, agent, 'go', session, stream);
    first.state.approve(first.interruptions[0]!);
    const partial = await runOnce(runner, agent, await RunState.fromString(agent, first.state.toString()), session, stream);
    expect(kept(await session.getItems())).toEqual(input);
    const restored = await RunState.fromString(agent, partial.state.toString());
    restored.approve(restored.getInterruptions()[0]!);
    await runOnce(runner, agent, restored, session, stream);
    expect(kept(await session.getItems())).toEqual(['user', 'call c1', 'call c2', 'hosted_tool_call', 'result c1', 'result c2']);
  });

  it('resumed with another session, that session gets what the first one was never given', async () => {
    const { agent, runner } = setup({});
    const before = new MemorySession();
    const first = await runOnce(runner, agent, 'go', before, stream);
    first.state.approve(first.interruptions[0]!);
    const after = new MemorySession();
    const partial = await runOnce(runner, agent, first.state, after, stream);
    partial.state.approve(partial.interruptions[0]!);
    await runOnce(runner, agent, partial.state, after, stream);
    expect(kept(await before.getItems())).toEqual(input);
    expect(kept(await after.getItems())).toEqual(stream ? ['call c1', 'call c2', 'hosted_tool_call', 'result c1', 'result c2'] : ['user', 'call c1', 'call c2', 'hosted_tool_call', 'result c1', 'result c2']);
  });

  it.each([
    ['the tools never give the answer (run_llm_again)', { behavior: 'run_llm_again' as const }],
    ['no output guardrail', { guardrails: 'none' as const }],
  ])('%s: the paused turn is written at once', async (_name, options) => {
    const { agent, runner } = setup(options);
    const session = new MemorySession();
    const first = await runOnce(runner, agent, 'go', session, stream);
    expect(kept(await session.getItems())).toEqual(['user', 'call c1', 'call c2', 'hosted_tool_call']);
    first.state.approve(first.interruptions[0]!);
    await runOnce(runner, agent, first.state, session, stream);
    expect(kept(await session.getItems())).toEqual(['user', 'call c1', 'call c2', 'hosted_tool_call', 'result c1']);
  });

  it('only function calls and no output yet: written at once; held from the first output on', async () => {
    const { agent, runner } = setup({ withHosted: false });
    const session = new MemorySession();
    const first = await runOnce(runner, agent, 'go', session, stream);
    expect(kept(await session.getItems())).toEqual(['user', 'call c1', 'call c2']);
    first.state.approve(first.interruptions[0]!);
    const partial = await runOnce(runner, agent, first.state, session, stream);
    expect(kept(await session.getItems())).toEqual(['user', 'call c1', 'call c2']);
    partial.state.approve(partial.interruptions[0]!);
    await runOnce(runner, agent, partial.state, session, stream);
    expect(kept(await session.getItems())).toEqual(['user', 'call c1', 'call c2', 'result c1', 'result c2']);
  });

  it('a trip once the turn completes: neither the session nor the state keeps anything the turn made', async () => {
    const noted = (name: string) =>
      tool({
        name,
        description: name,
        parameters: z.object({}),
        needsApproval: true,
        outputGuardrails: [{ name: `${name} note`, run: async () => ({ outputInfo: `${name} NOTE-SECRET`, behavior: { type: 'allow' as const } }) }],
        execute: async () => `${name} OUT-SECRET`,
      });
    const secretHosted = { ...hosted, providerData: { type: 'file_search_call', queries: ['q'], results: [{ text: 'HOSTED-SECRET' }] } };
    const model = new ScriptedModel([[functionCall('first', {}, { callId: 'c1' }), functionCall('second', {}, { callId: 'c2' }), secretHosted] as never]);
    const block: OutputGuardrail = { name: 'block', execute: async () => ({ tripwireTriggered: true, outputInfo: null }) };
    const agent = new Agent({ name: 'A', model, tools: [noted('first'), noted('second')], toolUseBehavior: 'stop_on_first_tool', outputGuardrails: [block] });
    const runner = new Runner();
    const session = new MemorySession();
    const first = await runOnce(runner, agent, 'go', session, stream);
    first.state.approve(first.interruptions[0]!);
    const partial = await runOnce(runner, agent, first.state, session, stream);
    partial.state.approve(partial.interruptions[0]!);
    const error = await runOnce(runner, agent, partial.state, session, stream).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    const written = (error as OutputGuardrailTripwireTriggered).state!.toString();
    for (const secret of ['OUT-SECRET', 'NOTE-SECRET', 'HOSTED-SECRET']) expect(written).not.toContain(secret);
    const json = JSON.parse(written);
    expect(json.generatedItems).toEqual([]);
    expect(json.modelResponses.at(-1).output).toEqual([]);
    expect(json.toolOutputGuardrailResults.map((result: { output: unknown }) => result.output)).toEqual([
      { behavior: { type: 'allow' } },
      { behavior: { type: 'allow' } },
    ]);
    expect(kept(await session.getItems())).toEqual(['user']);
  });
});

describe('what a held state says its session lacks (sessionUnsaved)', () => {
  async function heldState() {
    const { agent, runner } = setup({});
    const first = await runner.run(agent, 'go', { session: new MemorySession() });
    return { agent, runner, text: first.state.toString() };
  }

  it('is written only while the turn is held: the input and the turn\'s items (its approval requests too), by index', async () => {
    const { text } = await heldState();
    const json = JSON.parse(text);
    expect(json.$schemaVersion).toBe('3');
    expect(json.sessionUnsaved).toEqual({ input: [{ type: 'message', role: 'user', content: 'go' }], items: [0, 1, 2, 3, 4] });
    const { agent, runner } = setup({ behavior: 'run_llm_again' });
    const unheld = await runner.run(agent, 'go', { session: new MemorySession() });
    expect(JSON.parse(unheld.state.toString()).sessionUnsaved).toBeUndefined();
  });

  it('a state read back and written again, not resumed, says the same', async () => {
    const { agent, text } = await heldState();
    const again = (await RunState.fromString(agent, text)).toString();
    expect(JSON.parse(again).sessionUnsaved).toEqual(JSON.parse(text).sessionUnsaved);
  });

  it('an index that names no generated item is refused at its path', async () => {
    const { agent, text } = await heldState();
    const json = JSON.parse(text);
    json.sessionUnsaved.items = [0, 7];
    const error = await RunState.fromString(agent, JSON.stringify(json)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunStateError);
    expect((error as RunStateError).reason).toBe('invalid_state');
    expect((error as RunStateError).message).toContain('sessionUnsaved.items[1]');
    expect((error as RunStateError).message).toContain('item 7 is not one of the 5 generated items');
  });
});
