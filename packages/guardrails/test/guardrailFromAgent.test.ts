import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  ModelBehaviorError,
  OutputGuardrailTripwireTriggered,
  RunContext,
  Runner,
  UserError,
  Usage,
  run,
  type ModelProvider,
} from '@baton/core';
import { defineInputGuardrail, guardrailFromAgent, outputGuardrailFromAgent } from '../src/index.js';
import { inputOf, rejectionOf, slowModelStep } from './helpers.js';

const HomeworkCheck = z.object({ isMathHomework: z.boolean(), reasoning: z.string() });

function checkerSaying(...verdicts: Array<z.infer<typeof HomeworkCheck>>) {
  const model = new ScriptedModel(verdicts.map((v) => [assistantMessage(JSON.stringify(v))]));
  const checker = new Agent({ name: 'Guardrail check', instructions: 'Is this math homework?', model, outputType: HomeworkCheck });
  return { model, checker };
}

describe('guardrailFromAgent (input)', () => {
  it('runs the checker on the input; its structured verdict trips the run before the main model is called', async () => {
    const { model: checkerModel, checker } = checkerSaying({ isMathHomework: true, reasoning: 'solve for x' });
    const mainModel = new ScriptedModel([[assistantMessage('x = 4')]]);
    const guardrail = guardrailFromAgent(checker, { name: 'Math Homework Guardrail', runInParallel: false, tripwire: (verdict) => verdict.isMathHomework });
    const agent = new Agent({ name: 'Customer support agent', model: mainModel, inputGuardrails: [guardrail] });

    const error = await rejectionOf(run(agent, 'Hello, can you help me solve for x: 2x + 3 = 11?'));

    expect(error).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(error.message).toBe('Input guardrail triggered: {"isMathHomework":true,"reasoning":"solve for x"}');
    expect(error.result.output.outputInfo).toEqual({ isMathHomework: true, reasoning: 'solve for x' });
    expect(mainModel.calls).toHaveLength(0);
    expect(checkerModel.calls).toHaveLength(1);
    expect(inputOf(checkerModel.calls[0])).toEqual([{ type: 'message', role: 'user', content: 'Hello, can you help me solve for x: 2x + 3 = 11?' }]);
    expect(checkerModel.calls[0]!.request.outputType).toMatchObject({ type: 'json_schema' });
  });

  it('passes when the verdict is clean; the checker\'s usage counts in the parent run\'s usage', async () => {
    const { checker } = checkerSaying({ isMathHomework: false, reasoning: 'a billing question' });
    const mainModel = new ScriptedModel([{ output: [assistantMessage('Your invoice is attached.')], usage: new Usage({ inputTokens: 10, outputTokens: 5 }) }]);
    const guardrail = guardrailFromAgent(checker, { name: 'math', tripwire: (verdict) => verdict.isMathHomework });
    const agent = new Agent({ name: 'Support', model: mainModel, inputGuardrails: [guardrail] });
    const result = await run(agent, 'Where is my invoice?');
    expect(result.finalOutput).toBe('Your invoice is attached.');
    expect(result.inputGuardrailResults).toEqual([
      { guardrail: { type: 'input', name: 'math' }, output: { tripwireTriggered: false, outputInfo: { isMathHomework: false, reasoning: 'a billing question' } } },
    ]);
    expect(result.usage.requests).toBe(2);
    expect(result.usage.inputTokens).toBe(10);
  });

  it('gives the checker the parent\'s context value; `input` and `outputInfo` shape what it reads and reports', async () => {
    let seenTenant: unknown;
    const model = new ScriptedModel([[assistantMessage('{"isMathHomework":false,"reasoning":"ok"}')]]);
    const checker = new Agent<{ tenant: string }, typeof HomeworkCheck>({
      name: 'Checker',
      model,
      outputType: HomeworkCheck,
      instructions: (ctx) => ((seenTenant = ctx.context.tenant), 'check'),
    });
    const guardrail = guardrailFromAgent(checker, {
      name: 'math',
      runInParallel: false,
      tripwire: (v) => v.isMathHomework,
      input: ({ input }) => `Classify: ${String(input).toUpperCase()}`,
      outputInfo: (v) => v.reasoning,
    });
    const agent = new Agent({ name: 'Support', model: new ScriptedModel([[assistantMessage('hi')]]), inputGuardrails: [guardrail] });
    const result = await run(agent, 'hello', { context: { tenant: 'acme' } });
    expect(seenTenant).toBe('acme');
    expect(inputOf(model.calls[0])[0]).toMatchObject({ content: 'Classify: HELLO' });
    expect(result.inputGuardrailResults[0]!.output.outputInfo).toBe('ok');
  });

  it('a checker that fails (output not matching its type) fails the run with GuardrailExecutionError wrapping its error', async () => {
    const model = new ScriptedModel([[assistantMessage('definitely not JSON')]]);
    const checker = new Agent({ name: 'Checker', model, outputType: HomeworkCheck });
    const guardrail = guardrailFromAgent(checker, { name: 'math', runInParallel: false, tripwire: (v) => v.isMathHomework });
    const agent = new Agent({ name: 'Support', model: new ScriptedModel([]), inputGuardrails: [guardrail] });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    // The checker's answer stays out of the message unless sensitive data logging is on (as the reference).
    expect(error.message).toBe('Input guardrail "math" failed to complete: Invalid output type: final assistant output did not match the expected schema.');
    expect(error.message).not.toContain('definitely not JSON');
    expect(error.error).toBeInstanceOf(ModelBehaviorError);
  });

  it('runs inside the parent run: a timeout (or a cancel) aborts the checker\'s own model request', async () => {
    const slow = slowModelStep(1_000, [assistantMessage('{"isMathHomework":false,"reasoning":"late"}')]);
    const checker = new Agent({ name: 'Checker', model: new ScriptedModel([slow.step]), outputType: HomeworkCheck });
    const guardrail = guardrailFromAgent(checker, { name: 'math', runInParallel: false, timeoutMs: 40, tripwire: (v) => v.isMathHomework });
    const agent = new Agent({ name: 'Support', model: new ScriptedModel([]), inputGuardrails: [guardrail] });
    const startedAt = Date.now();
    const error = await rejectionOf(run(agent, 'hi'));
    expect(Date.now() - startedAt).toBeLessThan(500);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toMatch(/timed out after 40ms/);
    expect(await slow.outcome.promise).toBe('aborted');

    const slowAgain = slowModelStep(1_000, [assistantMessage('{"isMathHomework":false,"reasoning":"late"}')]);
    const checker2 = new Agent({ name: 'Checker', model: new ScriptedModel([slowAgain.step]), outputType: HomeworkCheck });
    const parallel = guardrailFromAgent(checker2, { name: 'math', tripwire: (v) => v.isMathHomework });
    const mainModel = slowModelStep(1_000, [assistantMessage('never')]);
    const agent2 = new Agent({ name: 'Support', model: new ScriptedModel([mainModel.step]), inputGuardrails: [parallel] });
    const controller = new AbortController();
    const pending = run(agent2, 'hi', { signal: controller.signal });
    await Promise.all([slowAgain.started.promise, mainModel.started.promise]);
    controller.abort();
    expect((await rejectionOf(pending)).name).toBe('AbortError');
    expect(await slowAgain.outcome.promise).toBe('aborted');
    expect(await mainModel.outcome.promise).toBe('aborted');
  });

  it('rejects bad arguments with a UserError naming them', () => {
    const { checker } = checkerSaying();
    expect(() => guardrailFromAgent({ name: 'not an agent' } as never, { name: 'g', tripwire: () => true })).toThrow(/guardrailFromAgent: the first argument must be an Agent/);
    expect(() => guardrailFromAgent(checker, { name: 'g' } as never)).toThrow(/guardrailFromAgent\("g"\): `tripwire` must be a function, got undefined/);
    expect(() => guardrailFromAgent(checker, { name: 'g', tripwire: () => true, input: 'x' } as never)).toThrow(UserError);
    expect(() => guardrailFromAgent(checker, { name: 5, tripwire: () => true } as never)).toThrow(/`name` must be a non-empty string/);
    expect(() => outputGuardrailFromAgent(checker, { name: 'g', tripwire: () => true, maxTurns: 0 })).toThrow(/`maxTurns` must be a positive integer/);
  });
});

describe('the seed pattern: run(checker, input, { context }) inside a guardrail', () => {
  // Running another agent with the parent's RunContext (as the seeds' math-homework guardrail does)
  // must not change the parent run's configuration: a later agent-as-tool in the parent run keeps
  // the parent Runner's modelProvider (core keeps it with each tool call, not with the context).
  it('keeps the parent runner\'s configuration for the rest of the parent run', async () => {
    const subModel = new ScriptedModel([[assistantMessage('sub answer')]]);
    const provider = { getModel: (name?: string) => (name === 'sub-model' ? subModel : Promise.reject(new Error(`unknown model ${name}`))) };
    const sub = new Agent({ name: 'Sub', model: 'sub-model' });
    const checker = new Agent({ name: 'Checker', model: new ScriptedModel([[assistantMessage('fine')]]) });
    const seedStyle = defineInputGuardrail({
      name: 'seed_style',
      runInParallel: false,
      execute: async ({ input, context }) => {
        const result = await run(checker, input, { context: context as RunContext });
        return { tripwireTriggered: false, outputInfo: result.finalOutput };
      },
    });
    const main = new Agent({
      name: 'Main',
      model: new ScriptedModel([[functionCall('sub_tool', { input: 'x' })], [assistantMessage('done')]]),
      tools: [sub.asTool({ toolName: 'sub_tool' })],
      inputGuardrails: [seedStyle],
    });
    const result = await new Runner({ modelProvider: provider as ModelProvider }).run(main, 'hi');
    expect(result.finalOutput).toBe('done');
    expect(subModel.calls).toHaveLength(1);
  });

  it('guardrailFromAgent does not disturb the parent runner\'s configuration', async () => {
    const subModel = new ScriptedModel([[assistantMessage('sub answer')]]);
    const provider = { getModel: (name?: string) => (name === 'sub-model' ? subModel : Promise.reject(new Error(`unknown model ${name}`))) };
    const sub = new Agent({ name: 'Sub', model: 'sub-model' });
    const { checker } = checkerSaying({ isMathHomework: false, reasoning: 'fine' });
    const main = new Agent({
      name: 'Main',
      model: new ScriptedModel([[functionCall('sub_tool', { input: 'x' })], [assistantMessage('done')]]),
      tools: [sub.asTool({ toolName: 'sub_tool' })],
      inputGuardrails: [guardrailFromAgent(checker, { name: 'math', runInParallel: false, tripwire: (v) => v.isMathHomework })],
    });
    const result = await new Runner({ modelProvider: provider as ModelProvider }).run(main, 'hi');
    expect(result.finalOutput).toBe('done');
    expect(subModel.calls).toHaveLength(1);
  });
});

describe('outputGuardrailFromAgent', () => {
  const MessageOutput = z.object({ response: z.string() });
  const MathOutput = z.object({ reasoning: z.string(), isMath: z.boolean() });

  it('runs the checker on the final output (JSON by default, or what `input` picks) and trips on its verdict', async () => {
    const checkerModel = new ScriptedModel([[assistantMessage('{"reasoning":"it solves an equation","isMath":true}')]]);
    const checker = new Agent({ name: 'Guardrail check', model: checkerModel, outputType: MathOutput });
    const guardrail = outputGuardrailFromAgent<typeof MathOutput, z.infer<typeof MessageOutput>>(checker, {
      name: 'Math Guardrail',
      tripwire: (v) => v.isMath,
      input: ({ agentOutput }) => agentOutput.response,
    });
    const agent = new Agent({
      name: 'Support agent',
      model: new ScriptedModel([[assistantMessage('{"response":"x = 4"}')]]),
      outputType: MessageOutput,
      outputGuardrails: [guardrail],
    });
    const error = await rejectionOf(run(agent, 'Hello, can you help me solve for x: 2x + 3 = 11?'));
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(error.result.agentOutput).toEqual({ response: 'x = 4' });
    expect(error.result.output.outputInfo).toEqual({ reasoning: 'it solves an equation', isMath: true });
    expect(inputOf(checkerModel.calls[0])[0]).toMatchObject({ content: 'x = 4' });

    const jsonModel = new ScriptedModel([[assistantMessage('{"reasoning":"none","isMath":false}')]]);
    const jsonChecker = new Agent({ name: 'Checker', model: jsonModel, outputType: MathOutput });
    const agent2 = new Agent({
      name: 'Support',
      model: new ScriptedModel([[assistantMessage('{"response":"hello"}')]]),
      outputType: MessageOutput,
      outputGuardrails: [outputGuardrailFromAgent(jsonChecker, { name: 'math', tripwire: (v) => v.isMath })],
    });
    expect((await run(agent2, 'hi')).finalOutput).toEqual({ response: 'hello' });
    expect(inputOf(jsonModel.calls[0])[0]).toMatchObject({ content: '{"response":"hello"}' });
  });
});
