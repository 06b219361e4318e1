import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  GuardrailExecutionError,
  Runner,
  RunState,
  ToolCallError,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  UserError,
  run,
  tool,
  type ToolInputGuardrailData,
  type ToolOutputGuardrailData,
} from '@baton/core';
import {
  ToolGuardrailFunctionOutputFactory as Verdict,
  defineToolInputGuardrail,
  defineToolOutputGuardrail,
  type ToolInputGuardrailDefinition,
  type ToolOutputGuardrailDefinition,
} from '../src/index.js';
import { rejectionOf, resultText, sleep } from './helpers.js';

function setup(options: { inputGuardrails?: ToolInputGuardrailDefinition[]; outputGuardrails?: ToolOutputGuardrailDefinition[]; needsApproval?: boolean } = {}) {
  const invocations: string[] = [];
  const classify = tool({
    name: 'classify_text',
    description: 'Classify text for internal routing.',
    parameters: z.object({ text: z.string() }),
    needsApproval: options.needsApproval ?? false,
    inputGuardrails: options.inputGuardrails ?? [],
    outputGuardrails: options.outputGuardrails ?? [],
    execute: ({ text }) => (invocations.push(text), { label: 'routing', echo: text }),
  });
  const model = new ScriptedModel([[functionCall('classify_text', { text: 'hello sk-test' }, { callId: 'c1' })], [assistantMessage('classified')]]);
  const agent = new Agent({ name: 'Classifier', model, tools: [classify] });
  return { agent, model, invocations };
}

describe('tool input guardrails', () => {
  it('allow: the tool runs; every result is recorded on the result and the state', async () => {
    let seen: ToolInputGuardrailData | undefined;
    const first = defineToolInputGuardrail({ name: 'first', run: (data) => ((seen = data), Verdict.allow({ checked: true })) });
    const second = defineToolInputGuardrail({ name: 'second', run: async () => Verdict.allow() });
    const { agent, invocations } = setup({ inputGuardrails: [first, second] });
    const result = await run(agent, 'classify', { context: { user: 'u1' } });
    expect(invocations).toEqual(['hello sk-test']);
    expect(result.finalOutput).toBe('classified');
    expect(seen!.toolCall).toMatchObject({ type: 'function_call', name: 'classify_text', callId: 'c1', arguments: '{"text":"hello sk-test"}' });
    expect(seen!.agent).toBe(agent);
    expect(seen!.context.context).toEqual({ user: 'u1' });
    expect(result.toolInputGuardrailResults).toEqual([
      { guardrail: { type: 'tool_input', name: 'first' }, output: { behavior: { type: 'allow' }, outputInfo: { checked: true } } },
      { guardrail: { type: 'tool_input', name: 'second' }, output: { behavior: { type: 'allow' } } },
    ]);
    expect(result.state.toolInputGuardrailResults).toEqual(result.toolInputGuardrailResults);
  });

  it('rejectContent: the tool is skipped, the model gets the message, later guardrails do not run', async () => {
    let laterRan = false;
    const block = defineToolInputGuardrail({
      name: 'block_secrets',
      run: ({ toolCall }) =>
        (JSON.parse(toolCall.arguments) as { text: string }).text.includes('sk-')
          ? Verdict.rejectContent('Remove secrets before calling this tool.', { secret: true })
          : Verdict.allow(),
    });
    const later = defineToolInputGuardrail({ name: 'later', run: () => ((laterRan = true), Verdict.allow()) });
    const { agent, model, invocations } = setup({ inputGuardrails: [block, later] });
    const result = await run(agent, 'classify');
    expect(invocations).toEqual([]);
    expect(laterRan).toBe(false);
    expect(resultText(model.calls[1], 'c1')).toBe('Remove secrets before calling this tool.');
    expect(result.finalOutput).toBe('classified');
    expect(result.toolInputGuardrailResults.map((r) => r.output.behavior.type)).toEqual(['rejectContent']);
  });

  it('throwException: the run fails with ToolCallError wrapping ToolInputGuardrailTripwireTriggered; the tool never runs', async () => {
    const raise = defineToolInputGuardrail({ name: 'raise', run: () => Verdict.throwException({ risk: 'high' }) });
    const { agent, model, invocations } = setup({ inputGuardrails: [raise] });
    const error = await rejectionOf(run(agent, 'classify'));
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error.message).toContain('Tool input guardrail triggered: raise');
    expect(error.error).toBeInstanceOf(ToolInputGuardrailTripwireTriggered);
    expect(error.error.message).toBe('Tool input guardrail triggered: raise');
    expect(error.error.result).toEqual({ guardrail: { type: 'tool_input', name: 'raise' }, output: { behavior: { type: 'throwException' }, outputInfo: { risk: 'high' } } });
    expect(error.state).toBeInstanceOf(RunState);
    expect(error.state.toolInputGuardrailResults).toEqual([error.error.result]);
    expect(invocations).toEqual([]);
    expect(model.calls).toHaveLength(1);
  });

  it('run in order, one at a time', async () => {
    const log: string[] = [];
    const mk = (name: string) =>
      defineToolInputGuardrail({ name, run: async () => (log.push(`start ${name}`), await sleep(10), log.push(`end ${name}`), Verdict.allow()) });
    const { agent } = setup({ inputGuardrails: [mk('a'), mk('b')] });
    await run(agent, 'classify');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('an Effect tool guardrail is run by the loop', async () => {
    const effectful = defineToolInputGuardrail({ name: 'effectful', run: () => Effect.succeed(Verdict.rejectContent('from an Effect')) });
    const { agent, model, invocations } = setup({ inputGuardrails: [effectful] });
    await run(agent, 'classify');
    expect(invocations).toEqual([]);
    expect(resultText(model.calls[1], 'c1')).toBe('from an Effect');
  });

  it.each([
    ['an unknown behaviour type', { behavior: { type: 'block' } }, /Tool input guardrail "odd" returned an invalid result: unknown behavior type "block"/],
    ['rejectContent without a message', { behavior: { type: 'rejectContent' } }, /Tool input guardrail "odd" returned an invalid result: rejectContent needs a string message/],
    ['a string', 'allow', /Tool input guardrail "odd" returned an invalid result: expected an object, got string/],
  ])('a guardrail returning %s fails with a GuardrailExecutionError naming it', async (_, value, message) => {
    const odd = defineToolInputGuardrail({ name: 'odd', run: () => value as never });
    const { agent, invocations } = setup({ inputGuardrails: [odd] });
    const error = await rejectionOf(run(agent, 'classify'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toMatch(message);
    expect(invocations).toEqual([]);
  });
});

describe('tool output guardrails', () => {
  it('allow keeps the output; every guardrail sees the tool\'s raw return value', async () => {
    const seen: unknown[] = [];
    const watch = (name: string) => defineToolOutputGuardrail({ name, run: (data: ToolOutputGuardrailData) => (seen.push(data.output), Verdict.allow()) });
    const { agent, model } = setup({ outputGuardrails: [watch('a'), watch('b')] });
    const result = await run(agent, 'classify');
    expect(seen).toEqual([
      { label: 'routing', echo: 'hello sk-test' },
      { label: 'routing', echo: 'hello sk-test' },
    ]);
    expect(resultText(model.calls[1], 'c1')).toBe('{"label":"routing","echo":"hello sk-test"}');
    expect(result.toolOutputGuardrailResults.map((r) => r.guardrail)).toEqual([
      { type: 'tool_output', name: 'a' },
      { type: 'tool_output', name: 'b' },
    ]);
  });

  it('rejectContent replaces the output sent to the model and stops later guardrails', async () => {
    let laterRan = false;
    const redact = defineToolOutputGuardrail({
      name: 'redact_output',
      run: ({ output }) => (JSON.stringify(output).includes('sk-') ? Verdict.rejectContent('Output contained sensitive data.') : Verdict.allow()),
    });
    const later = defineToolOutputGuardrail({ name: 'later', run: () => ((laterRan = true), Verdict.allow()) });
    const { agent, model, invocations } = setup({ outputGuardrails: [redact, later] });
    const result = await run(agent, 'classify');
    expect(invocations).toEqual(['hello sk-test']);
    expect(resultText(model.calls[1], 'c1')).toBe('Output contained sensitive data.');
    expect(laterRan).toBe(false);
    expect(result.finalOutput).toBe('classified');
  });

  it('throwException fails the run with ToolCallError wrapping ToolOutputGuardrailTripwireTriggered', async () => {
    const raise = defineToolOutputGuardrail({ name: 'raise_out', run: () => Verdict.throwException('leak') });
    const { agent, model } = setup({ outputGuardrails: [raise] });
    const error = await rejectionOf(run(agent, 'classify'));
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error.error).toBeInstanceOf(ToolOutputGuardrailTripwireTriggered);
    expect(error.error.message).toBe('Tool output guardrail triggered: raise_out');
    expect(error.error.result).toEqual({ guardrail: { type: 'tool_output', name: 'raise_out' }, output: { behavior: { type: 'throwException' }, outputInfo: 'leak' } });
    expect(error.state.toolOutputGuardrailResults).toEqual([error.error.result]);
    expect(model.calls).toHaveLength(1);
  });

  it('an unknown behaviour fails with a GuardrailExecutionError naming the guardrail', async () => {
    const odd = defineToolOutputGuardrail({ name: 'odd_out', run: () => ({ behavior: { type: 'redact' } }) as never });
    const { agent } = setup({ outputGuardrails: [odd] });
    const error = await rejectionOf(run(agent, 'classify'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toMatch(/Tool output guardrail "odd_out" returned an invalid result: unknown behavior type "redact"/);
  });
});

describe('tool guardrails that throw', () => {
  // The reference wraps a tool guardrail that throws as ToolCallError('Failed to run function tools: <error>', error, state).
  it.each(['input', 'output'] as const)('a %s guardrail that throws fails the run with ToolCallError wrapping the error, with the state', async (kind) => {
    const kaboom = new Error('kaboom');
    const thrower =
      kind === 'input'
        ? { inputGuardrails: [defineToolInputGuardrail({ name: 'thrower', run: () => Promise.reject(kaboom) })] }
        : { outputGuardrails: [defineToolOutputGuardrail({ name: 'thrower', run: () => Promise.reject(kaboom) })] };
    const { agent } = setup(thrower);
    const error = await rejectionOf(run(agent, 'classify'));
    expect(error).toBeInstanceOf(ToolCallError);
    // As the reference's ToolCallError: the message names the error, and `error` is the very error the guardrail threw.
    expect(error.message).toBe('Failed to run function tools: Error: kaboom');
    expect(error.error).toBe(kaboom);
    expect(error.state).toBeInstanceOf(RunState);
  });
});

describe('preApprovalInputGuardrails', () => {
  const counting = (verdict: () => ReturnType<typeof Verdict.allow>) => {
    const state = { calls: 0 };
    const guardrail = defineToolInputGuardrail({ name: 'pre_check', run: () => (state.calls++, verdict()) });
    return { guardrail, state };
  };

  it('off by default: no guardrail before the approval request; once after approval', async () => {
    const { guardrail, state } = counting(() => Verdict.allow());
    const { agent, invocations } = setup({ inputGuardrails: [guardrail], needsApproval: true });
    const paused = await run(agent, 'classify');
    expect(paused.interruptions).toHaveLength(1);
    expect(state.calls).toBe(0);
    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(agent, paused.state);
    expect(state.calls).toBe(1);
    expect(invocations).toEqual(['hello sk-test']);
    expect(resumed.finalOutput).toBe('classified');
  });

  it('on: the guardrails run before asking for approval and again after it (twice in all)', async () => {
    const { guardrail, state } = counting(() => Verdict.allow());
    const { agent, invocations } = setup({ inputGuardrails: [guardrail], needsApproval: true });
    const runner = new Runner({ toolExecution: { preApprovalInputGuardrails: true } });
    const paused = await runner.run(agent, 'classify');
    expect(paused.interruptions).toHaveLength(1);
    expect(state.calls).toBe(1);
    expect(invocations).toEqual([]);
    paused.state.approve(paused.interruptions[0]!);
    const resumed = await runner.run(agent, paused.state);
    expect(state.calls).toBe(2);
    expect(invocations).toEqual(['hello sk-test']);
    expect(resumed.toolInputGuardrailResults).toHaveLength(2);
    expect(resumed.finalOutput).toBe('classified');
  });

  it('on (per run): a rejection replaces the approval request with the message sent to the model', async () => {
    const { guardrail, state } = counting(() => Verdict.rejectContent('Not allowed to ask for this.'));
    const { agent, model, invocations } = setup({ inputGuardrails: [guardrail], needsApproval: true });
    const result = await run(agent, 'classify', { toolExecution: { preApprovalInputGuardrails: true } });
    expect(result.interruptions).toEqual([]);
    expect(state.calls).toBe(1);
    expect(invocations).toEqual([]);
    expect(resultText(model.calls[1], 'c1')).toBe('Not allowed to ask for this.');
    expect(result.finalOutput).toBe('classified');
  });

  it('on: throwException before approval fails the run', async () => {
    const { guardrail } = counting(() => Verdict.throwException());
    const { agent } = setup({ inputGuardrails: [guardrail], needsApproval: true });
    const error = await rejectionOf(run(agent, 'classify', { toolExecution: { preApprovalInputGuardrails: true } }));
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error.error).toBeInstanceOf(ToolInputGuardrailTripwireTriggered);
  });

  it('a non-boolean option is a UserError', async () => {
    const { agent } = setup();
    await expect(run(agent, 'classify', { toolExecution: { preApprovalInputGuardrails: 'yes' as never } })).rejects.toThrow(UserError);
  });
});
