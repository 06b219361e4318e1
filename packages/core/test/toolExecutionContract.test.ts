// What the function-tool phase of a turn promises beyond the happy path, each stated where it is
// promised: the `baton.tool` span's attributes (core README's span table), the arguments the
// `toolErrorFormatter` receives (the reference's `ToolErrorFormatterArgs`), the opt-in
// `toolExecution.preApprovalInputGuardrails` (the reference's run config), sibling calls cancelled
// when one fails the run (the reference's sibling cancellation), the framing of a streaming tool's
// call (streaming README), the step kinds a step runner sees (`StepKind`), and the warning for a
// tool error the default error function answered (the logger's `dontLogToolData`).
import { Effect } from 'effect';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, InvalidToolInputError, ModelBehaviorError, RunContext, RunState, Runner, ToolCallError, run, setSensitiveDataLoggingEnabled, tool, type RunStreamEvent, type StepRunner } from '../src/index.js';
import { recordingTracer } from './helpers.js';

const echo = () => tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), execute: ({ text }) => `echo ${text}` });
const failing = (errorFunction?: ((context: unknown, error: unknown) => string) | null) =>
  tool({
    name: 'flaky',
    description: '',
    parameters: z.object({}),
    execute: () => {
      throw new TypeError('backend said no');
    },
    ...(errorFunction === undefined ? {} : { errorFunction }),
  });

/** The output the model received for a call, as the next request's input carries it. */
function outputSent(model: ScriptedModel, callId: string): unknown {
  const input = model.lastCall!.request.input as Array<{ type?: string; callId?: string; output?: unknown }>;
  return input.find((item) => item.type === 'function_call_result' && item.callId === callId)?.output;
}

const toolSpans = (spans: ReturnType<typeof recordingTracer>['spans']) => spans.filter((span) => span.name === 'baton.tool');

describe('the baton.tool span (core README)', () => {
  it('names the call, its input and output, and an MCP tool its server', async () => {
    const { tracer, spans } = recordingTracer();
    const remote = Object.assign(echo(), { name: 'remote', mcp: { server: 'files', toolName: 'read' } });
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' }), functionCall('remote', { text: 'x' }, { callId: 'c2' })], [assistantMessage('done')]]);
    await new Runner({ tracer }).run(new Agent({ name: 'A', model, tools: [echo(), remote] }), 'go');
    const [first, second] = toolSpans(spans).sort((a, b) => String(a.attributes['baton.tool.call_id']).localeCompare(String(b.attributes['baton.tool.call_id'])));
    expect(first!.attributes).toMatchObject({ 'baton.tool.name': 'echo', 'baton.tool.call_id': 'c1', 'baton.tool.input': '{"text":"hi"}', 'baton.tool.output': 'echo hi' });
    expect(first!.attributes).not.toHaveProperty('baton.tool.mcp_server');
    expect(first!.attributes).not.toHaveProperty('baton.tool.error');
    expect(second!.attributes).toMatchObject({ 'baton.tool.name': 'remote', 'baton.tool.mcp_server': 'files' });
  });

  it('carries the parse error of arguments that are not JSON (the tool never ran, so no error function)', async () => {
    const { tracer, spans } = recordingTracer();
    const model = new ScriptedModel([[functionCall('echo', '{"text": ', { callId: 'c1' })], [assistantMessage('done')]]);
    await new Runner({ tracer }).run(new Agent({ name: 'A', model, tools: [echo()] }), 'go');
    const [span] = toolSpans(spans);
    expect(span!.attributes['baton.tool.error']).toBeInstanceOf(InvalidToolInputError);
    expect((span!.attributes['baton.tool.error'] as Error).message).toMatch(/^Invalid JSON input for tool "echo": /);
    expect(span!.attributes).not.toHaveProperty('baton.tool.error_function');
  });

  it('carries the error an error function answered, and whose function it was', async () => {
    for (const [errorFunction, which] of [
      [undefined, 'default'],
      [() => 'custom answer', 'custom'],
    ] as const) {
      const { tracer, spans } = recordingTracer();
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        const model = new ScriptedModel([[functionCall('flaky', {}, { callId: 'f1' })], [assistantMessage('done')]]);
        await new Runner({ tracer }).run(new Agent({ name: 'A', model, tools: [failing(errorFunction)] }), 'go');
      } finally {
        warn.mockRestore();
      }
      const [span] = toolSpans(spans);
      expect(span!.attributes['baton.tool.error']).toBeInstanceOf(TypeError);
      expect((span!.attributes['baton.tool.error'] as Error).message).toBe('backend said no');
      expect(span!.attributes['baton.tool.error_function']).toBe(which);
    }
  });

  it('carries the rejection when a human rejected the call', async () => {
    const { tracer, spans } = recordingTracer();
    const guarded = Object.assign(echo(), { needsApproval: async () => true });
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [guarded] });
    const runner = new Runner({ tracer });
    const paused = await runner.run(agent, 'go');
    expect(toolSpans(spans)).toEqual([]);
    paused.state.reject(paused.interruptions[0]!, { message: 'not today' });
    await runner.run(agent, paused.state);
    const [span] = toolSpans(spans);
    expect(span!.attributes['baton.tool.rejection']).toMatchObject({ message: 'not today' });
    expect(span!.attributes['baton.tool.output']).toBe('not today');
  });
});

describe('a tool error the default error function answered', () => {
  afterEach(() => setSensitiveDataLoggingEnabled(false));

  async function warningsFor(errorFunction?: (context: unknown, error: unknown) => string) {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const model = new ScriptedModel([[functionCall('flaky', {}, { callId: 'f1' })], [assistantMessage('done')]]);
      const result = await run(new Agent({ name: 'A', model, tools: [failing(errorFunction)] }), 'go');
      return { lines: warn.mock.calls.map((args) => String(args[0])), result, model };
    } finally {
      warn.mockRestore();
    }
  }

  it('is logged once with the tool, the call and the error name, its message only when tool data may be logged', async () => {
    const hidden = await warningsFor();
    expect(hidden.lines).toHaveLength(1);
    expect(hidden.lines[0]).toContain('"flaky"');
    expect(hidden.lines[0]).toContain('f1');
    expect(hidden.lines[0]).toContain('TypeError');
    expect(hidden.lines[0]).not.toContain('backend said no');
    setSensitiveDataLoggingEnabled(true);
    const shown = await warningsFor();
    expect(shown.lines).toHaveLength(1);
    expect(shown.lines[0]).toContain('TypeError: backend said no');
  });

  it('is not logged when the tool has an error function of its own (it decided what to do)', async () => {
    expect((await warningsFor(() => 'handled')).lines).toEqual([]);
  });

  it('is on the output item as `error` (the thrown error), kept out of its JSON', async () => {
    const { result } = await warningsFor();
    const item = result.newItems.find((candidate) => candidate.type === 'tool_call_output_item') as { error?: unknown; toJSON(): unknown };
    expect(item.error).toBeInstanceOf(TypeError);
    expect((item.error as Error).message).toBe('backend said no');
    expect(Object.keys(item)).not.toContain('error');
    expect(JSON.stringify(item.toJSON())).not.toContain('backend said no');
  });

  it('is not there for a call that succeeded', async () => {
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [echo()] }), 'go');
    const item = result.newItems.find((candidate) => candidate.type === 'tool_call_output_item') as { error?: unknown };
    expect('error' in item).toBe(false);
  });
});

describe('the toolErrorFormatter (the reference ToolErrorFormatterArgs)', () => {
  it('is told the kind and tool type of a missing tool and of a rejected call', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const toolErrorFormatter = (args: Record<string, unknown>) => {
      const { runContext: _ignored, ...rest } = args;
      seen.push(rest);
      return undefined;
    };
    const guarded = Object.assign(echo(), { needsApproval: async () => true });
    const model = new ScriptedModel([[functionCall('nowhere', {}, { callId: 'n1' }), functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [guarded] });
    const runner = new Runner({ toolErrorFormatter, toolNotFoundBehavior: 'return_error_to_model' } as never);
    const paused = await runner.run(agent, 'go');
    paused.state.reject(paused.interruptions[0]!);
    await runner.run(agent, paused.state);
    expect(seen).toEqual([
      expect.objectContaining({ kind: 'tool_not_found', toolType: 'function', toolName: 'nowhere', callId: 'n1' }),
      expect.objectContaining({ kind: 'approval_rejected', toolType: 'function', toolName: 'echo', callId: 'c1' }),
    ]);
  });
});

describe('toolExecution.preApprovalInputGuardrails (the reference run config)', () => {
  const setup = () => {
    const ran: string[] = [];
    const guarded = tool({
      name: 'pay',
      description: '',
      parameters: z.object({ amount: z.number() }),
      needsApproval: async () => true,
      inputGuardrails: [{ name: 'limit', run: () => ({ outputInfo: 'over', behavior: { type: 'rejectContent', message: 'Too much to pay.' } }) as never }],
      execute: ({ amount }) => (ran.push(String(amount)), 'paid'),
    });
    const model = new ScriptedModel([[functionCall('pay', { amount: 900 }, { callId: 'p1' })], [assistantMessage('done')]]);
    return { agent: new Agent({ name: 'A', model, tools: [guarded] }), model, ran };
  };

  it('when true, a rejecting input guardrail answers the model before a human is asked', async () => {
    const { agent, model, ran } = setup();
    const result = await new Runner({ toolExecution: { preApprovalInputGuardrails: true } }).run(agent, 'go');
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('done');
    expect(outputSent(model, 'p1')).toMatchObject({ text: 'Too much to pay.' });
    expect(ran).toEqual([]);
  });

  it('when true, an allowing input guardrail still leaves the decision to a human', async () => {
    const ran: string[] = [];
    const checked: string[] = [];
    const guarded = tool({
      name: 'pay',
      description: '',
      parameters: z.object({ amount: z.number() }),
      needsApproval: async () => true,
      inputGuardrails: [{ name: 'limit', run: () => (checked.push('limit'), { outputInfo: 'fine', behavior: { type: 'allow' } }) as never }],
      execute: ({ amount }) => (ran.push(String(amount)), 'paid'),
    });
    const model = new ScriptedModel([[functionCall('pay', { amount: 5 }, { callId: 'p1' })], [assistantMessage('done')]]);
    const paused = await new Runner({ toolExecution: { preApprovalInputGuardrails: true } }).run(new Agent({ name: 'A', model, tools: [guarded] }), 'go');
    expect(checked).toEqual(['limit']);
    expect(paused.interruptions).toHaveLength(1);
    expect(ran).toEqual([]);
  });

  it('by default, the human is asked first (the guardrail runs once the call is approved)', async () => {
    const { agent, ran } = setup();
    const paused = await new Runner().run(agent, 'go');
    expect(paused.interruptions).toHaveLength(1);
    expect(ran).toEqual([]);
  });
});

describe('calls of one response', () => {
  it('a call that fails the run aborts the signal of its sibling, even when the caller passed a signal of its own', async () => {
    let siblingSignal: AbortSignal | undefined;
    const waiter = tool({
      name: 'waiter',
      description: '',
      parameters: z.object({}),
      execute: (_input, _context, details) => {
        siblingSignal = details?.signal;
        // Ends when its signal fires, or after a while when it never does (so a broken run fails fast).
        return new Promise((resolve) => {
          const timer = setTimeout(() => resolve('never stopped'), 2_000);
          details!.signal!.addEventListener('abort', () => (clearTimeout(timer), resolve('stopped')));
        });
      },
    });
    const boom = tool({
      name: 'boom',
      description: '',
      parameters: z.object({}),
      errorFunction: null,
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        throw new Error('boom');
      },
    });
    const model = new ScriptedModel([[functionCall('waiter', {}, { callId: 'w1' }), functionCall('boom', {}, { callId: 'b1' })], [assistantMessage('done')]]);
    const caller = new AbortController();
    await expect(run(new Agent({ name: 'A', model, tools: [waiter, boom] }), 'go', { signal: caller.signal })).rejects.toBeInstanceOf(ToolCallError);
    expect(siblingSignal?.aborted).toBe(true);
    expect(caller.signal.aborted).toBe(false);
  });

  it('a call whose arguments are not JSON answers the model without starting the tool (as the reference)', async () => {
    const ran: unknown[] = [];
    const started: string[] = [];
    const ping = tool({ name: 'ping', description: '', parameters: z.object({ n: z.number() }), execute: (input) => (ran.push(input), 'pong') });
    const model = new ScriptedModel([[{ ...functionCall('ping', {}, { callId: 'p1' }), arguments: '{"n": ' }], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [ping] });
    agent.on('agent_tool_start', (_context, started_tool) => started.push(started_tool.name));
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('done');
    expect(ran).toEqual([]);
    expect(started).toEqual([]);
    expect(outputSent(model, 'p1')).toEqual({ type: 'text', text: 'An error occurred while parsing tool arguments. Please try again with valid JSON.' });
  });

  it('a call the caller cancelled is recorded with the output `aborted`, incomplete (as the reference records it)', async () => {
    const controller = new AbortController();
    const waiter = tool({
      name: 'waiter',
      description: '',
      parameters: z.object({}),
      execute: (_input, _context, details) =>
        new Promise((_resolve, reject) => {
          details!.signal!.addEventListener('abort', () => reject(details!.signal!.reason));
          setTimeout(() => controller.abort(), 10);
        }),
    });
    const model = new ScriptedModel([[functionCall('waiter', {}, { callId: 'w1' })], [assistantMessage('never asked')]]);
    const agent = new Agent({ name: 'A', model, tools: [waiter] });
    const state = new RunState(new RunContext(), 'go', agent, 10);
    await expect(new Runner().run(agent, state, { signal: controller.signal })).rejects.toBeDefined();
    const item = state.generatedItems.find((candidate) => candidate.type === 'tool_call_output_item') as { output: unknown; rawItem: { status?: string } };
    expect(item.output).toBe('aborted');
    expect(item.rawItem.status).toBe('incomplete');
  });

  it('with limits.maxConcurrentToolCalls Infinity (no limit), all calls of a response run at once', async () => {
    let started = 0;
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    const meet = tool({
      name: 'meet',
      description: '',
      parameters: z.object({ n: z.number() }),
      // Each call waits for the others to start: only calls running at the same time finish.
      execute: async ({ n }) => {
        started += 1;
        if (started === 3) release();
        await Promise.race([allStarted, new Promise((resolve) => setTimeout(resolve, 2_000))]);
        return started === 3 ? `met ${n}` : 'alone';
      },
    });
    const model = new ScriptedModel([[1, 2, 3].map((n) => functionCall('meet', { n }, { callId: `m${n}` })), [assistantMessage('done')]]);
    await new Runner({ limits: { maxConcurrentToolCalls: Infinity } }).run(new Agent({ name: 'A', model, tools: [meet] }), 'go');
    expect([1, 2, 3].map((n) => outputSent(model, `m${n}`))).toEqual([1, 2, 3].map((n) => ({ type: 'text', text: `met ${n}` })));
  });

  it('the output guardrails of a tool whose arguments failed its schema check the answer its error function gave (as the reference)', async () => {
    const seen: unknown[] = [];
    const checked = tool({
      name: 'echo',
      description: '',
      parameters: z.object({ text: z.string() }),
      outputGuardrails: [{ name: 'look', run: ({ output }: { output: unknown }) => (seen.push(output), { outputInfo: '', behavior: { type: 'allow' } }) as never }],
      execute: ({ text }) => text,
    });
    const model = new ScriptedModel([[functionCall('echo', { text: 5 } as never, { callId: 'c1' })], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [checked] }), 'go');
    expect(result.finalOutput).toBe('done');
    expect(seen).toEqual(['An error occurred while running the tool. Please try again.']);
  });

  it('a tool may emit many events in a run nobody streams: they are dropped, the tool is not held up', async () => {
    const chatty = tool({
      name: 'chatty',
      description: '',
      parameters: z.object({}),
      execute: async (_input, _context, details) => {
        for (let i = 0; i < 2_000; i++) await details!.emit!({ type: 'notify', data: i });
        return 'said it all';
      },
    });
    const model = new ScriptedModel([[functionCall('chatty', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [chatty] }), 'go');
    expect(result.finalOutput).toBe('done');
    expect(outputSent(model, 'c1')).toMatchObject({ text: 'said it all' });
  });
});

describe('a streaming tool call is framed (streaming README)', () => {
  const streamingTool = <T extends object>(base: T) => Object.assign(base, { streaming: true });

  async function ends(tools: unknown[], calls: ReturnType<typeof functionCall>[], options: { expectFailure?: new (...args: never[]) => Error; raiseInvalidInput?: boolean } = {}) {
    const model = new ScriptedModel([calls, [assistantMessage('done')]]);
    const runner = new Runner(options.raiseInvalidInput ? { invalidToolInputBehavior: 'raise_error' } : {});
    const result = await runner.run(new Agent({ name: 'A', model, tools: tools as never }), 'go', { stream: true });
    const events: RunStreamEvent[] = [];
    const consumed = (async () => {
      for await (const event of result) events.push(event);
    })();
    if (options.expectFailure) await expect(result.completed).rejects.toBeInstanceOf(options.expectFailure);
    else await result.completed;
    await consumed.catch(() => {});
    return events.filter((event) => event.type === 'tool_stream_end_event') as unknown as Array<{ toolCallId: string; output?: unknown; error?: { name: string; message: string }; interrupted?: boolean }>;
  }

  it('with the output the model sees, and no error, when the call succeeded', async () => {
    const [end] = await ends([streamingTool(echo())], [functionCall('echo', { text: 'hi' }, { callId: 'c1' })]);
    expect(end).toMatchObject({ toolCallId: 'c1', output: 'echo hi' });
    expect(end!.error).toBeUndefined();
    expect(end!.interrupted).toBeFalsy();
  });

  it('with the error (name and message) when the tool threw, also when its error function answered the model', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const [end] = await ends([streamingTool(failing())], [functionCall('flaky', {}, { callId: 'f1' })]);
      expect(end!.error).toEqual({ name: 'TypeError', message: 'backend said no' });
      expect(typeof end!.output).toBe('string');
      expect(end!.interrupted).toBeFalsy();
    } finally {
      warn.mockRestore();
    }
  });

  it('names a thrown value that is not an Error `Error`, with the value as its message', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const throwsText = tool({
        name: 'texty',
        description: '',
        parameters: z.object({}),
        execute: () => {
          throw 'out of paper';
        },
      });
      const [end] = await ends([streamingTool(throwsText)], [functionCall('texty', {}, { callId: 't1' })]);
      expect(end!.error).toEqual({ name: 'Error', message: 'out of paper' });
    } finally {
      warn.mockRestore();
    }
  });

  it('with the error the tool threw (not its wrapper) when that fails the run', async () => {
    const [end] = await ends([streamingTool(failing(null))], [functionCall('flaky', {}, { callId: 'f1' })], { expectFailure: ToolCallError });
    expect(end!.error).toEqual({ name: 'TypeError', message: 'backend said no' });
    expect(end!.output).toBeUndefined();
  });

  it('with the error, and the answer its error function gave, when the arguments fail the schema', async () => {
    const [end] = await ends([streamingTool(echo())], [functionCall('echo', { text: 5 } as never, { callId: 'c1' })]);
    expect(end!.error?.name).toBe('InvalidToolInputError');
    expect(end!.output).toBe('An error occurred while running the tool. Please try again.');
    expect(end!.interrupted).toBeFalsy();
  });

  it('with the error, and no output, when the arguments fail the schema and the run raises invalid input', async () => {
    const [end] = await ends([streamingTool(echo())], [functionCall('echo', { text: 5 } as never, { callId: 'c1' })], { expectFailure: ModelBehaviorError, raiseInvalidInput: true });
    expect(end).toMatchObject({ toolCallId: 'c1', error: { name: 'InvalidToolInputError' } });
    expect(end!.output).toBeUndefined();
    expect(end!.interrupted).toBeFalsy();
  });

  it('as interrupted when the nested run of an agent tool paused', async () => {
    const inner = new Agent({
      name: 'Inner',
      model: new ScriptedModel([[functionCall('echo', { text: 'x' }, { callId: 'i1' })], [assistantMessage('inner done')]]),
      tools: [Object.assign(echo(), { needsApproval: async () => true })],
    });
    const outer = inner.asTool({ toolName: 'ask', toolDescription: '', streaming: true } as never);
    const [end] = await ends([outer], [functionCall('ask', { input: 'go' }, { callId: 'a1' })]);
    expect(end).toMatchObject({ toolCallId: 'a1', interrupted: true });
    expect(end!.error).toBeUndefined();
  });
});

describe('the steps a step runner sees (StepKind)', () => {
  function recording() {
    const steps: Array<{ key: string; kind: string }> = [];
    const runner: StepRunner = { runStep: (step, effect) => Effect.suspend(() => (steps.push({ key: step.key, kind: step.kind }), effect)) };
    return { runner, steps };
  }

  it('a function tool call is a `tool` step, and the approval checks of a resumed turn read a `time` step', async () => {
    const { runner, steps } = recording();
    const guarded = Object.assign(echo(), { needsApproval: async () => true });
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [guarded] });
    const paused = await new Runner({ stepRunner: runner }).run(agent, 'go');
    const state = await RunState.fromString(agent, paused.state.toString());
    // An approval with an expiry: whether it still holds depends on the time.
    state.setApprovalExpiry(state.getInterruptions()[0]!, Date.now() + 3_600_000);
    state.approve(state.getInterruptions()[0]!);
    await new Runner({ stepRunner: runner }).run(agent, state);
    expect(steps).toContainEqual({ key: 'tool:c1', kind: 'tool' });
    expect(steps).toContainEqual({ key: 't1:approvals:time', kind: 'time' });
  });

  it.each([
    ['a recording step runner', true],
    ['no step runner', false],
  ])('with %s, the resumed turn’s calls read the recorded time only when one is recorded, and a live clock once they ended', async (_label, recorded) => {
    const config = recorded ? { stepRunner: recording().runner } : {};
    let reads: number[] = [];
    const approved = tool({
      name: 'approved',
      description: '',
      parameters: z.object({}),
      needsApproval: async () => true,
      execute: async (_input, context) => {
        const first = context!.now();
        await new Promise((resolve) => setTimeout(resolve, 30));
        reads = [first, context!.now()];
        return 'read';
      },
    });
    const model = new ScriptedModel([[functionCall('approved', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [approved] });
    const paused = await new Runner(config).run(agent, 'go');
    const state = await RunState.fromString(agent, paused.state.toString());
    state.setApprovalExpiry(state.getInterruptions()[0]!, Date.now() + 3_600_000);
    state.approve(state.getInterruptions()[0]!);
    const result = await new Runner(config).run(agent, state);
    // With a step runner the approved call's turn reads one recorded time (a replay decides its
    // approvals the same way); without one, time goes on ...
    if (recorded) {
      expect(reads[1]).toBe(reads[0]);
      // The recorded time is the time of the turn (not a clock that reads nothing).
      expect(Math.abs(reads[0]! - Date.now())).toBeLessThan(60_000);
    }
    else expect(reads[1]! - reads[0]!).toBeGreaterThanOrEqual(20);
    // ... and once the calls ended the context reads a live clock again.
    const before = result.state.context.now();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(result.state.context.now() - before).toBeGreaterThanOrEqual(20);
  });

  it('a guardrail checked before approval is a `guardrail` step under its call', async () => {
    const { runner, steps } = recording();
    const guarded = tool({
      name: 'pay',
      description: '',
      parameters: z.object({ amount: z.number() }),
      needsApproval: async () => true,
      inputGuardrails: [{ name: 'limit', run: () => ({ outputInfo: 'over', behavior: { type: 'rejectContent', message: 'Too much to pay.' } }) as never }],
      execute: () => 'paid',
    });
    const model = new ScriptedModel([[functionCall('pay', { amount: 900 }, { callId: 'p1' })], [assistantMessage('done')]]);
    await new Runner({ stepRunner: runner, toolExecution: { preApprovalInputGuardrails: true } }).run(new Agent({ name: 'A', model, tools: [guarded] }), 'go');
    const guardrailSteps = steps.filter((step) => step.kind === 'guardrail');
    expect(guardrailSteps).toHaveLength(1);
    expect(guardrailSteps[0]!.key.startsWith('tool:p1')).toBe(true);
  });

  it('a turn with no approval to judge reads no time', async () => {
    const { runner, steps } = recording();
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
    await new Runner({ stepRunner: runner }).run(new Agent({ name: 'A', model, tools: [echo()] }), 'go');
    expect(steps.map((step) => step.kind)).not.toContain('time');
  });

  it('an agent tool is no step of its own: its nested run’s steps are', async () => {
    const { runner, steps } = recording();
    const inner = new Agent({ name: 'Inner', model: new ScriptedModel([[assistantMessage('inner done')]]) });
    const model = new ScriptedModel([[functionCall('ask', { input: 'go' }, { callId: 'a1' })], [assistantMessage('done')]]);
    await new Runner({ stepRunner: runner }).run(new Agent({ name: 'A', model, tools: [inner.asTool({ toolName: 'ask', toolDescription: '' })] }), 'go');
    expect(steps.map((step) => step.key)).not.toContain('tool:a1');
    expect(steps.some((step) => step.key.startsWith('tool:a1'))).toBe(true);
  });
});

describe('agent_tool_end of a function tool (as the reference fires it)', () => {
  function hooked(agent: Agent<any, any>) {
    const log: string[] = [];
    agent.on('agent_tool_start', (_context, started, details) => log.push(`start ${started.name} ${(details.toolCall as { callId?: string }).callId}`));
    agent.on('agent_tool_end', (_context, ended, result, details) => log.push(`end ${ended.name} ${JSON.stringify(result)} ${(details.toolCall as { callId?: string }).callId}`));
    return { agent, log };
  }

  it('gets the output an output guardrail replaced, as the model sees it', async () => {
    const redact = { name: 'redact', run: () => ({ outputInfo: 'secret', behavior: { type: 'rejectContent', message: '[redacted]' } }) as never };
    const secret = tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), outputGuardrails: [redact], execute: ({ text }) => `secret ${text}` });
    const model = new ScriptedModel([[functionCall('echo', { text: 'x' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const { agent, log } = hooked(new Agent({ name: 'A', model, tools: [secret] }));
    await run(agent, 'go');
    expect(log).toEqual(['start echo c1', 'end echo "[redacted]" c1']);
  });

  it('fires with the error when the tool threw with no error function, before the run fails', async () => {
    const model = new ScriptedModel([[functionCall('flaky', {}, { callId: 'f1' })], [assistantMessage('done')]]);
    const { agent, log } = hooked(new Agent({ name: 'A', model, tools: [failing(null)] }));
    await expect(run(agent, 'go')).rejects.toBeInstanceOf(ToolCallError);
    expect(log).toEqual(['start flaky f1', 'end flaky "TypeError: backend said no" f1']);
  });

  it('fires with the answer the model got when the arguments fail the schema', async () => {
    const model = new ScriptedModel([[functionCall('echo', { text: 5 } as never, { callId: 'c1' })], [assistantMessage('done')]]);
    const { agent, log } = hooked(new Agent({ name: 'A', model, tools: [echo()] }));
    await run(agent, 'go');
    const answer = (outputSent(model, 'c1') as { text: string }).text;
    expect(log).toEqual(['start echo c1', `end echo ${JSON.stringify(answer)} c1`]);
  });

  it('fires with `aborted` for a call a failing sibling cancelled', async () => {
    const waiter = tool({
      name: 'waiter',
      description: '',
      parameters: z.object({}),
      execute: (_input, _context, details) => new Promise((_resolve, reject) => details!.signal!.addEventListener('abort', () => reject(details!.signal!.reason))),
    });
    const model = new ScriptedModel([[functionCall('waiter', {}, { callId: 'w1' }), functionCall('flaky', {}, { callId: 'f1' })], [assistantMessage('done')]]);
    const { agent, log } = hooked(new Agent({ name: 'A', model, tools: [waiter, failing(null)] }));
    await expect(run(agent, 'go')).rejects.toBeInstanceOf(ToolCallError);
    expect(log).toContain('end waiter "aborted" w1');
    expect(log.filter((line) => line.startsWith('end waiter'))).toHaveLength(1);
  });

  it('fires once, with the output, for a call that succeeded', async () => {
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const { agent, log } = hooked(new Agent({ name: 'A', model, tools: [echo()] }));
    await run(agent, 'go');
    expect(log).toEqual(['start echo c1', 'end echo "echo hi" c1']);
  });

  it('a journal of an earlier release that recorded invalid arguments replays as the default error function’s answer (raise_error: the run fails)', async () => {
    // Releases before this one journaled arguments failing the schema as \`{ invalidInput }\`.
    const replaying: StepRunner = {
      runStep: (step, effect) => (step.kind === 'tool' ? Effect.succeed(step.codec.decode({ invalidInput: 'Invalid input for tool "echo": text: bad' })) : effect) as never,
    };
    const model = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const { agent, log } = hooked(new Agent({ name: 'A', model, tools: [echo()] }));
    await new Runner({ stepRunner: replaying }).run(agent, 'go');
    expect(outputSent(model, 'c1')).toEqual({ type: 'text', text: 'An error occurred while running the tool. Please try again.' });
    expect(log).toEqual(['start echo c1', 'end echo "An error occurred while running the tool. Please try again." c1']);
    const again = new ScriptedModel([[functionCall('echo', { text: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const error = await new Runner({ stepRunner: replaying, invalidToolInputBehavior: 'raise_error' }).run(new Agent({ name: 'A', model: again, tools: [echo()] }), 'go').catch((e: unknown) => e);
    expect((error as Error).message).toBe('Invalid input for tool "echo": text: bad');
  });

  it.each([
    ['with a reason', () => new Error('user left'), 'Error: user left'],
    ['without a reason', () => undefined, 'AbortError: This operation was aborted'],
  ])('fires with what the call threw, not `aborted`, when the run’s caller cancelled it (%s); its output guardrails never run', async (_label, reason, ended) => {
    const controller = new AbortController();
    const checked: unknown[] = [];
    const waiter = tool({
      name: 'waiter',
      description: '',
      parameters: z.object({}),
      outputGuardrails: [{ name: 'look', run: ({ output }: { output: unknown }) => (checked.push(output), { outputInfo: '', behavior: { type: 'allow' } }) as never }],
      execute: (_input, _context, details) =>
        new Promise((_resolve, reject) => {
          details!.signal!.addEventListener('abort', () => reject(details!.signal!.reason));
          setTimeout(() => controller.abort(reason()), 10);
        }),
    });
    const model = new ScriptedModel([[functionCall('waiter', {}, { callId: 'w1' })], [assistantMessage('never asked')]]);
    const { agent, log } = hooked(new Agent({ name: 'A', model, tools: [waiter] }));
    await expect(run(agent, 'go', { signal: controller.signal })).rejects.toBeDefined();
    expect(log).toEqual(['start waiter w1', `end waiter ${JSON.stringify(ended)} w1`]);
    expect(checked).toEqual([]);
  });

  it('fires with an empty result when an agent tool’s nested run paused, and with its output when the resumed call ends', async () => {
    const risky = tool({ name: 'risky', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'risky done' });
    const inner = new Agent({ name: 'Inner', model: new ScriptedModel([[functionCall('risky', {}, { callId: 'r1' })], [assistantMessage('inner done')]]), tools: [risky] });
    const model = new ScriptedModel([[functionCall('ask', { input: 'x' }, { callId: 'a1' })], [assistantMessage('done')]]);
    const { agent, log } = hooked(new Agent({ name: 'A', model, tools: [inner.asTool({ toolName: 'ask', toolDescription: '' })] }));
    const paused = await run(agent, 'go');
    expect(log).toEqual(['start ask a1', 'end ask "" a1']);
    paused.state.approve(paused.interruptions[0]!);
    await run(agent, paused.state);
    expect(log).toEqual(['start ask a1', 'end ask "" a1', 'start ask a1', 'end ask "inner done" a1']);
  });
});
