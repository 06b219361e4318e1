import { Effect } from 'effect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  GuardrailExecutionError,
  OutputGuardrailTripwireTriggered,
  Runner,
  RunState,
  defaultHandoffToolName,
  run,
  tool,
  type OutputGuardrailFunctionArgs,
} from '@baton/core';
import { defineOutputGuardrail } from '../src/index.js';
import { deferred, rejectionOf, sleep } from './helpers.js';

const MessageOutput = z.object({ response: z.string() });
type MessageOutput = z.infer<typeof MessageOutput>;

const noPhone = defineOutputGuardrail<MessageOutput>({
  name: 'no_phone',
  execute: ({ agentOutput }) => ({
    tripwireTriggered: /\d{3}-\d{4}/.test(agentOutput.response),
    outputInfo: { phoneNumberInResponse: /\d{3}-\d{4}/.test(agentOutput.response) },
  }),
});

describe('output guardrails', () => {
  it('receive the parsed output, the agent, the context and details (last model response, the run\'s output items)', async () => {
    let seen: OutputGuardrailFunctionArgs<{ tenant: string }, MessageOutput> | undefined;
    const spy = defineOutputGuardrail<MessageOutput, { tenant: string }>({ name: 'spy', execute: (args) => ((seen = args), { tripwireTriggered: false }) });
    const lookup = tool({ name: 'lookup', description: '', parameters: z.object({ id: z.number() }), execute: ({ id }) => `record ${id}` });
    const model = new ScriptedModel([
      [functionCall('lookup', { id: 7 }, { callId: 'c7' })],
      [assistantMessage('{"response":"record 7 found"}', { id: 'msg_final' })],
    ]);
    const agent = new Agent({ name: 'Support', model, tools: [lookup], outputType: MessageOutput, outputGuardrails: [spy] });

    const result = await run(agent, 'find 7', { context: { tenant: 't1' } });

    expect(result.finalOutput).toEqual({ response: 'record 7 found' });
    expect(seen!.agentOutput).toEqual({ response: 'record 7 found' });
    expect(seen!.agent).toBe(agent);
    expect(seen!.context.context).toEqual({ tenant: 't1' });
    expect(seen!.details?.modelResponse).toBe(result.rawResponses[1]);
    expect(seen!.details?.modelResponse?.responseId).toBe('scripted-response-2');
    expect(seen!.details?.output?.map((item) => item.type)).toEqual(['function_call', 'function_call_result', 'message']);
    expect(seen!.details?.output).toEqual(result.output);
    expect(result.outputGuardrailResults).toEqual([
      { guardrail: { type: 'output', name: 'spy' }, agentOutput: { response: 'record 7 found' }, agent, output: { tripwireTriggered: false } },
    ]);
  });

  it('a tripwire fails the run with OutputGuardrailTripwireTriggered carrying the result and the state', async () => {
    const model = new ScriptedModel([[assistantMessage('{"response":"Call me at 555-0101"}')]]);
    const agent = new Agent({ name: 'Support', model, outputType: MessageOutput, outputGuardrails: [noPhone] });
    const error = await rejectionOf(run(agent, 'how do I reach you?'));
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(error.message).toBe('Output guardrail triggered: {"phoneNumberInResponse":true}');
    expect(error.result).toEqual({
      guardrail: { type: 'output', name: 'no_phone' },
      agentOutput: { response: 'Call me at 555-0101' },
      agent,
      output: { tripwireTriggered: true, outputInfo: { phoneNumberInResponse: true } },
    });
    expect(error.state).toBeInstanceOf(RunState);
    expect(error.state.outputGuardrailResults).toEqual([error.result]);
  });

  it('run as one concurrent batch: all finish and are recorded; the first tripwire in list order surfaces', async () => {
    const started: string[] = [];
    const bothStarted = deferred();
    const make = (name: string, tripped: boolean, delayMs: number) =>
      defineOutputGuardrail({
        name,
        execute: async () => {
          started.push(name);
          if (started.length === 2) bothStarted.resolve();
          await bothStarted.promise;
          await sleep(delayMs);
          return { tripwireTriggered: tripped, outputInfo: name };
        },
      });
    const agent = new Agent({
      name: 'A',
      model: new ScriptedModel([[assistantMessage('answer')]]),
      outputGuardrails: [make('slow_trip', true, 40), make('fast_trip', true, 1)],
    });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(started).toEqual(['slow_trip', 'fast_trip']);
    expect(error.result.guardrail.name).toBe('slow_trip');
    expect(error.state.outputGuardrailResults.map((r: { guardrail: { name: string } }) => r.guardrail.name)).toEqual(['slow_trip', 'fast_trip']);
  });

  it('a guardrail that throws fails the run with GuardrailExecutionError; completed siblings stay recorded', async () => {
    const boom = new Error('classifier offline');
    const failing = defineOutputGuardrail({ name: 'failing', execute: async () => (await sleep(5), Promise.reject(boom)) });
    const success = defineOutputGuardrail({ name: 'success', execute: async () => (await sleep(20), { tripwireTriggered: false }) });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('answer')]]), outputGuardrails: [failing, success] });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toBe('Output guardrail "failing" failed to complete: classifier offline');
    expect(error.error).toBe(boom);
    expect(error.state.outputGuardrailResults.map((r: { guardrail: { name: string } }) => r.guardrail.name)).toEqual(['success']);
    const serialized = JSON.parse(error.state.toString()) as { outputGuardrailResults: Array<{ guardrail: { name: string } }> };
    expect(serialized.outputGuardrailResults.map((r) => r.guardrail.name)).toEqual(['success']);
  });

  it('runner-level output guardrails come before the agent\'s', async () => {
    const mk = (name: string) => defineOutputGuardrail({ name, execute: () => ({ tripwireTriggered: false }) });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('x')]]), outputGuardrails: [mk('agent_level')] });
    const result = await new Runner({ outputGuardrails: [mk('runner_level')] }).run(agent, 'hi');
    expect(result.outputGuardrailResults.map((r) => r.guardrail.name)).toEqual(['runner_level', 'agent_level']);
  });

  it('run only for the agent that produced the final output', async () => {
    const never = defineOutputGuardrail({ name: 'triage_guard', execute: () => ({ tripwireTriggered: true }) });
    const specialistGuard = defineOutputGuardrail({ name: 'specialist_guard', execute: () => ({ tripwireTriggered: false }) });
    const specialist = new Agent({ name: 'Specialist', model: new ScriptedModel([[assistantMessage('handled')]]), outputGuardrails: [specialistGuard] });
    const triage = new Agent({
      name: 'Triage',
      model: new ScriptedModel([[functionCall(defaultHandoffToolName(specialist), {})]]),
      handoffs: [specialist],
      outputGuardrails: [never],
    });
    const result = await run(triage, 'hi');
    expect(result.finalOutput).toBe('handled');
    expect(result.outputGuardrailResults.map((r) => r.guardrail.name)).toEqual(['specialist_guard']);
  });

  it('do not run when the run pauses for approval', async () => {
    let calls = 0;
    const counted = defineOutputGuardrail({ name: 'counted', execute: () => (calls++, { tripwireTriggered: false }) });
    const pay = tool({ name: 'pay', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'paid' });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[functionCall('pay', {})]]), tools: [pay], outputGuardrails: [counted] });
    const result = await run(agent, 'pay');
    expect(result.interruptions).toHaveLength(1);
    expect(calls).toBe(0);
  });

  it('a guardrail returning an invalid value fails with a GuardrailExecutionError naming it', async () => {
    const bad = defineOutputGuardrail({ name: 'bad_output_guardrail', execute: () => ({ tripped: true }) as never });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('x')]]), outputGuardrails: [bad] });
    const error = await rejectionOf(run(agent, 'hi'));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toMatch(/^Output guardrail "bad_output_guardrail" failed to complete: .*tripwireTriggered/);
  });

  it('timeoutMs bounds an output guardrail that hangs', async () => {
    const hangs = defineOutputGuardrail({ name: 'hangs', timeoutMs: 30, execute: () => new Promise<never>(() => undefined) });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('x')]]), outputGuardrails: [hangs] });
    const startedAt = Date.now();
    const error = await rejectionOf(run(agent, 'hi'));
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toMatch(/"hangs".*timed out after 30ms/);
  });

  it('an Effect output guardrail is run by the loop', async () => {
    const effectful = defineOutputGuardrail<string>({
      name: 'shouting',
      execute: ({ agentOutput }) => Effect.succeed({ tripwireTriggered: agentOutput === agentOutput.toUpperCase(), outputInfo: 'shouting' }),
    });
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('HELLO')], [assistantMessage('hello')]]), outputGuardrails: [effectful] });
    expect(await rejectionOf(run(agent, 'hi'))).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect((await run(agent, 'hi')).finalOutput).toBe('hello');
  });
});
