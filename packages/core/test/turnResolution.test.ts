import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { ModelRefusalError, type AssistantMessageItem } from '@baton/types';
import { Agent, MaxTurnsExceededError, OutputGuardrailTripwireTriggered, StreamedRunResult, UserError, hostedMcpTool, run, shellTool, tool, type FunctionToolResult, type ShellCallItem, type ToolUseBehavior } from '../src/index.js';

// What a turn leads to once its tools settled, as the reference resolves it: only the function
// tools' results the model called directly can end the run through `toolUseBehavior` (a local
// tool's output, or a program's call, sends the run back to the model); a text agent's answer is
// its final output even when empty; a `toolUseBehavior` function is handed the function results
// and must answer `{ isFinalOutput: boolean, finalOutput? }`.

const lookup = tool({ name: 'lookup', description: '', parameters: z.object({}), execute: () => 'looked up' });

describe('resolving a turn', () => {
  it("a text agent's empty answer is its final output: the model is not asked again", async () => {
    const model = new ScriptedModel([[assistantMessage('')], [assistantMessage('asked again')]]);
    const result = await run(new Agent({ name: 'Quiet', model }), 'say nothing');
    expect(result.finalOutput).toBe('');
    expect(model.calls).toHaveLength(1);
  });

  it('a message beside an MCP approval request answered in code is no final output: the model gets the answer first', async () => {
    const server = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://docs.example/mcp', requireApproval: 'always', onApproval: () => ({ approve: true }) });
    const request = {
      type: 'hosted_tool_call' as const,
      id: 'req-1',
      name: 'mcp_approval_request',
      status: 'completed' as const,
      providerData: { type: 'mcp_approval_request', id: 'req-1', server_label: 'docs', name: 'lookup', arguments: '{}' },
    };
    const model = new ScriptedModel([[request, assistantMessage('let me check')], [assistantMessage('checked')]]);
    const result = await run(new Agent({ name: 'Docs', model, tools: [server] }), 'look it up');
    expect(result.finalOutput).toBe('checked');
    expect(model.calls).toHaveLength(2);
  });

  it('a message beside a client tool search the SDK answered is no final output: the model gets the loaded tools first', async () => {
    const search = { type: 'hosted_tool' as const, name: 'tool_search', providerData: { type: 'tool_search', execution: 'client' } };
    const eta = tool({ name: 'eta', description: 'Shipping ETA', parameters: z.object({}), deferLoading: true, execute: () => 'tomorrow' });
    const searchCall = { type: 'tool_search_call' as const, id: 'ts_1', status: 'completed' as const, arguments: { paths: ['eta'] }, providerData: { call_id: 'search_1', execution: 'client' } };
    const model = new ScriptedModel([[searchCall, assistantMessage('searching')], [assistantMessage('found it')]]);
    const result = await run(new Agent({ name: 'Loader', model, tools: [search, eta] }), 'go');
    expect(result.finalOutput).toBe('found it');
    expect(model.calls).toHaveLength(2);
  });

  it("'stop_on_first_tool' does not stop on a local tool's output: only function tools' results can end the run", async () => {
    const shellCall: ShellCallItem = { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['ls'] } };
    const shell = shellTool({ shell: { run: async () => ({ output: [{ stdout: 'a.txt', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] }) } });
    const model = new ScriptedModel([[shellCall], [assistantMessage('the model answers')]]);
    const result = await run(new Agent({ name: 'Ops', model, tools: [shell], toolUseBehavior: 'stop_on_first_tool' }), 'list');
    expect(result.finalOutput).toBe('the model answers');
    expect(model.calls).toHaveLength(2);
  });

  it("'stop_on_first_tool' stops on a call the model made directly (a `caller` of type 'direct')", async () => {
    const direct = { ...functionCall('lookup', {}, { callId: 'c1' }), caller: { type: 'direct' as const } };
    const model = new ScriptedModel([[direct], [assistantMessage('asked again')]]);
    const result = await run(new Agent({ name: 'Stopper', model, tools: [lookup], toolUseBehavior: 'stop_on_first_tool' }), 'go');
    expect(result.finalOutput).toBe('looked up');
    expect(model.calls).toHaveLength(1);
  });

  it('a toolUseBehavior function is handed each function result as { type: "function_output", tool, output, runItem }', async () => {
    const seen: FunctionToolResult[] = [];
    const behavior: ToolUseBehavior = (_ctx, results) => {
      seen.push(...results);
      return { isFinalOutput: true, finalOutput: 'decided' };
    };
    const model = new ScriptedModel([[functionCall('lookup', {}, { callId: 'c1' })]]);
    const result = await run(new Agent({ name: 'Decider', model, tools: [lookup], toolUseBehavior: behavior }), 'go');
    expect(result.finalOutput).toBe('decided');
    expect(seen.map((r) => ({ type: r.type, tool: r.tool.name, output: r.output, callId: (r.runItem.rawItem as { callId?: string }).callId }))).toEqual([
      { type: 'function_output', tool: 'lookup', output: 'looked up', callId: 'c1' },
    ]);
  });

  it.each([
    ['null', null],
    ['an object without isFinalOutput', {}],
    ['a non-boolean isFinalOutput', { isFinalOutput: 'yes', finalOutput: 'x' }],
    ['a function carrying isFinalOutput', Object.assign(() => undefined, { isFinalOutput: true, finalOutput: 'x' })],
  ])('a toolUseBehavior function answering %s fails the run with a UserError, without asking the model again', async (_name, answer) => {
    const model = new ScriptedModel([[functionCall('lookup', {})], [assistantMessage('asked again')]]);
    const agent = new Agent({ name: 'Odd', model, tools: [lookup], toolUseBehavior: () => answer as never });
    const failure = await run(agent, 'go').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(UserError);
    expect((failure as Error).message).toBe('Agent "Odd": toolUseBehavior must return { isFinalOutput, finalOutput? }.');
    expect(model.calls).toHaveLength(1);
  });
});

const Summary = z.object({ summary: z.string() });
const refusalOnly: AssistantMessageItem = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] };

describe('a structured-output agent', () => {
  it("a turn of tool calls without a message is no missing answer: the invalidFinalOutput handler is not asked, the model is", async () => {
    const model = new ScriptedModel([[functionCall('lookup', {})], [assistantMessage('{"summary":"from the model"}')]]);
    const agent = new Agent({ name: 'Summarizer', outputType: Summary, model, tools: [lookup] });
    const asked: unknown[] = [];
    const result = await run(agent, 'x', { errorHandlers: { invalidFinalOutput: ({ error }) => (asked.push(error), { finalOutput: { summary: 'fallback' } }) } });
    expect(asked).toEqual([]);
    expect(result.finalOutput).toEqual({ summary: 'from the model' });
    expect(model.calls).toHaveLength(2);
  });

  it("a turn of shell calls without a message is no missing answer either: the model is asked again", async () => {
    const shellCall: ShellCallItem = { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['ls'] } };
    const shell = shellTool({ shell: { run: async () => ({ output: [{ stdout: 'a.txt', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] }) } });
    const model = new ScriptedModel([[shellCall], [assistantMessage('{"summary":"from the model"}')]]);
    const agent = new Agent({ name: 'Summarizer', outputType: Summary, model, tools: [shell] });
    const asked: unknown[] = [];
    const result = await run(agent, 'x', { errorHandlers: { invalidFinalOutput: ({ error }) => (asked.push(error), { finalOutput: { summary: 'fallback' } }) } });
    expect(asked).toEqual([]);
    expect(result.finalOutput).toEqual({ summary: 'from the model' });
    expect(model.calls).toHaveLength(2);
  });

  it('a refusal is answered by the modelRefusal handler, not the invalidFinalOutput one', async () => {
    const model = new ScriptedModel([[refusalOnly], [assistantMessage('{"summary":"asked again"}')]]);
    const agent = new Agent({ name: 'Summarizer', outputType: Summary, model });
    const asked: string[] = [];
    const result = await run(agent, 'x', {
      errorHandlers: {
        invalidFinalOutput: () => (asked.push('invalidFinalOutput'), { finalOutput: { summary: 'invalid' } }),
        modelRefusal: ({ error }) => (asked.push(error instanceof ModelRefusalError ? 'modelRefusal' : 'other'), { finalOutput: { summary: 'refused' } }),
      },
    });
    expect(asked).toEqual(['modelRefusal']);
    expect(result.finalOutput).toEqual({ summary: 'refused' });
    expect(model.calls).toHaveLength(1);
  });
});

describe("the run's final output ends the agent: agent_end, once, with that output", () => {
  const ends = (agent: Agent<any, any>) => {
    const seen: unknown[] = [];
    agent.on('agent_end', (_ctx, output) => void seen.push(output));
    return seen;
  };

  it.each([
    ['a message', () => new Agent({ name: 'Plain', model: new ScriptedModel([[assistantMessage('hello')]]) }), {}, 'hello', 'hello'],
    [
      "a tool's output under 'stop_on_first_tool'",
      () => new Agent({ name: 'Stopper', model: new ScriptedModel([[functionCall('lookup', {})]]), tools: [lookup], toolUseBehavior: 'stop_on_first_tool' }),
      {},
      'looked up',
      'looked up',
    ],
    [
      "the invalidFinalOutput handler's answer",
      () => new Agent({ name: 'Summarizer', outputType: Summary, model: new ScriptedModel([[assistantMessage('')]]) }),
      { errorHandlers: { invalidFinalOutput: () => ({ finalOutput: { summary: 'fallback' } }) } },
      { summary: 'fallback' },
      // The hook gets the handler's answer as the reference formats it: JSON text for a structured output type.
      '{"summary":"fallback"}',
    ],
    ["the modelRefusal handler's answer", () => new Agent({ name: 'Refuser', model: new ScriptedModel([[refusalOnly]]) }), { errorHandlers: { modelRefusal: () => ({ finalOutput: 'refused' }) } }, 'refused', 'refused'],
  ] as const)('%s', async (_label, make, options, output, announced) => {
    const agent = make();
    const seen = ends(agent);
    const result = await run(agent, 'go', options as never);
    expect(result.finalOutput).toEqual(output);
    expect(seen).toEqual([announced]);
  });
});

describe('the step a run that ran out of turns was left at', () => {
  const stepOf = async (agent: Agent<any, any>) => {
    const error = await run(agent, 'go', { maxTurns: 1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MaxTurnsExceededError);
    return JSON.parse((error as MaxTurnsExceededError).state!.toString()).currentStep;
  };

  it('after a handoff: next_step_run_again, the new agent current', async () => {
    const target = new Agent({ name: 'Target', model: new ScriptedModel([[assistantMessage('never')]]) });
    const model = new ScriptedModel([[functionCall('transfer_to_Target', {})]]);
    expect(await stepOf(new Agent({ name: 'Triage', model, handoffs: [target] }))).toEqual({ type: 'next_step_run_again' });
  });

  it('after a structured answer missing and no handler: next_step_run_again', async () => {
    const model = new ScriptedModel([[assistantMessage('')]]);
    expect(await stepOf(new Agent({ name: 'Summarizer', outputType: Summary, model }))).toEqual({ type: 'next_step_run_again' });
  });
});

describe('an output guardrail on a model answer', () => {
  it("is handed the turn's model response and the run's items as details; a trip keeps the answer on the error and the items on its state", async () => {
    const seen: Array<{ response: unknown; output: unknown }> = [];
    const guard = {
      name: 'no_secrets',
      execute: async (args: { details?: { modelResponse?: { output?: unknown[] }; output?: unknown[] } }) => {
        seen.push({ response: args.details?.modelResponse?.output, output: args.details?.output });
        return { tripwireTriggered: true, outputInfo: 'blocked' };
      },
    };
    const model = new ScriptedModel([[assistantMessage('secret answer')]]);
    const agent = new Agent({ name: 'Guarded', model, outputGuardrails: [guard as never] });
    const error = await run(agent, 'go').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    const message = expect.objectContaining({ type: 'message', role: 'assistant', content: [expect.objectContaining({ type: 'output_text', text: 'secret answer' })] });
    expect(seen).toEqual([{ response: [message], output: [message] }]);
    const trip = error as OutputGuardrailTripwireTriggered;
    expect(trip.result.agentOutput).toBe('secret answer');
    expect(JSON.parse(trip.state!.toString()).generatedItems).toHaveLength(1);
  });

  it("running the trip's error state again checks the same answer again, without a model call", async () => {
    let checks = 0;
    const guard = { name: 'second_look', execute: async () => ({ tripwireTriggered: ++checks === 1, outputInfo: checks }) };
    const model = new ScriptedModel([[assistantMessage('the answer')], [assistantMessage('asked again')]]);
    const agent = new Agent({ name: 'Guarded', model, outputGuardrails: [guard] });
    const error = await run(agent, 'go').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    const again = await run(agent, (error as OutputGuardrailTripwireTriggered).state!);
    expect(again.finalOutput).toBe('the answer');
    expect(checks).toBe(2);
    expect(model.calls).toHaveLength(1);
  });

  it('is not the final output until the guardrails pass: a streamed result hides it while they run and after they trip (as the reference)', async () => {
    // runResult.ts: finalOutput is the parsed final output, or undefined when the run has not
    // finished; the reference's streamed result hides it from the start of the output check and
    // reveals it only once the check passed.
    const seenDuringCheck: unknown[] = [];
    let result: StreamedRunResult<unknown, Agent<unknown, 'text'>> | undefined;
    const guard = { name: 'no_secrets', execute: async () => (seenDuringCheck.push(result?.finalOutput), { tripwireTriggered: true, outputInfo: 'blocked' }) };
    const agent = new Agent({ name: 'Guarded', model: new ScriptedModel([[assistantMessage('secret answer')]]), outputGuardrails: [guard] });
    result = await run(agent, 'go', { stream: true });
    const error = await result.completed.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(seenDuringCheck).toEqual([undefined]);
    expect(result.finalOutput).toBeUndefined();
  });
});

