import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  ToolCallError,
  UserError,
  run,
  tool,
  type RunStreamEvent,
  type ToolStreamEndEvent,
  type ToolStreamStartEvent,
} from '@baton/core';
import { StreamingToolEmissionError, notify, streamingTool } from '../src/index.js';
import { collect, collectUntilFailure, deferred, inputOf, labels, resultText, within } from './helpers.js';

/** A streaming tool reporting `steps` progress notifications, then returning a report. */
function progressTool(log: string[] = []) {
  return streamingTool({
    name: 'build_report',
    description: 'Builds a report, reporting progress',
    parameters: z.object({ steps: z.number() }),
    async *execute({ steps }) {
      for (let i = 1; i <= steps; i++) {
        log.push(`step ${i}`);
        yield notify({ done: i, of: steps }, 'progress');
      }
      return `report with ${steps} sections`;
    },
  });
}

const callReport = (steps = 3, callId = 'c1') => functionCall('build_report', { steps }, { callId });

describe('streamingTool() in a streamed run', () => {
  it('frames the call with start/end, turns yields into notify events, and returns the output', async () => {
    const model = new ScriptedModel([[callReport(3)], [assistantMessage('Here is your report.')]]);
    const agent = new Agent({ name: 'Writer', model, tools: [progressTool()] });
    const result = await run(agent, 'write a report', { stream: true });
    const events = await collect(result);
    await result.completed;

    expect(labels(events)).toEqual([
      'tool_called',
      'start(build_report)',
      'notify(build_report):{"done":1,"of":3}',
      'notify(build_report):{"done":2,"of":3}',
      'notify(build_report):{"done":3,"of":3}',
      'end(build_report)',
      'tool_output',
      'message_output_created',
    ]);
    const start = events.find((e): e is ToolStreamStartEvent => e.type === 'tool_stream_start_event')!;
    expect(start).toMatchObject({ toolName: 'build_report', toolCallId: 'c1', input: '{"steps":3}' });
    const end = events.find((e): e is ToolStreamEndEvent => e.type === 'tool_stream_end_event')!;
    expect(end).toMatchObject({ toolName: 'build_report', toolCallId: 'c1', output: 'report with 3 sections' });
    expect(end.error).toBeUndefined();
    const notes = events.filter((e) => e.type === 'notify_stream_event');
    expect(notes.every((e) => e.toolCallId === 'c1' && e.tag === 'progress')).toBe(true);
    expect(result.finalOutput).toBe('Here is your report.');
  });

  it('keeps notifications out of history and out of the model’s next input: only the output enters', async () => {
    const model = new ScriptedModel([[callReport(2)], [assistantMessage('ok')]]);
    const marker = 'PROGRESS-ONLY-FOR-THE-UI';
    const chatty = streamingTool({
      name: 'build_report',
      description: '',
      parameters: z.object({ steps: z.number() }),
      async *execute() {
        yield notify(marker);
        yield { type: 'notify', data: { marker }, tag: marker };
        return 'the output';
      },
    });
    const result = await run(new Agent({ name: 'W', model, tools: [chatty] }), 'go', { stream: true });
    const events = await collect(result);
    await result.completed;
    expect(events.filter((e) => e.type === 'notify_stream_event')).toHaveLength(2);

    expect(result.history.map((i) => i.type ?? 'message')).toEqual(['message', 'function_call', 'function_call_result', 'message']);
    expect(JSON.stringify(result.history)).not.toContain(marker);
    expect(JSON.stringify(result.newItems)).not.toContain(marker);
    expect(resultText(model.calls[1], 'c1')).toBe('the output');
    expect(JSON.stringify(inputOf(model.calls[1]))).not.toContain(marker);
    expect(result.state.toString()).not.toContain(marker);
  });

  it('runs concurrently with other tools of the same response', async () => {
    const bothStarted = { a: deferred(), b: deferred() };
    const waiter = (name: 'a' | 'b', other: 'a' | 'b') =>
      streamingTool({
        name: `tool_${name}`,
        description: '',
        parameters: z.object({}),
        async *execute() {
          yield notify(`${name} started`);
          bothStarted[name].resolve();
          await within(bothStarted[other].promise, 2000, `tool_${other} did not run while tool_${name} was running`);
          yield notify(`${name} saw ${other}`);
          return `${name} done`;
        },
      });
    const plain = tool({ name: 'plain', description: '', parameters: z.object({}), execute: () => 'plain done' });
    const model = new ScriptedModel([
      [functionCall('tool_a', {}, { callId: 'ca' }), functionCall('plain', {}, { callId: 'cp' }), functionCall('tool_b', {}, { callId: 'cb' })],
      [assistantMessage('all done')],
    ]);
    const result = await run(new Agent({ name: 'C', model, tools: [waiter('a', 'b'), plain, waiter('b', 'a')] }), 'go', { stream: true });
    const events = await collect(result);
    await result.completed;

    const byCall = (id: string) => events.filter((e) => 'toolCallId' in e && e.toolCallId === id).map((e) => e.type);
    expect(byCall('ca')).toEqual(['tool_stream_start_event', 'notify_stream_event', 'notify_stream_event', 'tool_stream_end_event']);
    expect(byCall('cb')).toEqual(['tool_stream_start_event', 'notify_stream_event', 'notify_stream_event', 'tool_stream_end_event']);
    expect(byCall('cp')).toEqual([]); // a plain tool is not framed
    // History keeps call order whatever the timing.
    expect(inputOf(model.calls[1]).flatMap((i) => (i.type === 'function_call_result' ? [i.callId] : []))).toEqual(['ca', 'cp', 'cb']);
    expect(resultText(model.calls[1], 'cb')).toBe('b done');
  });

  it('forwards the events of a run it drives (yield*), wrapped in streaming_tool_context_event', async () => {
    const innerModel = new ScriptedModel([[assistantMessage('inner answer')]]);
    const inner = new Agent({ name: 'Inner', model: innerModel });
    const delegate = streamingTool({
      name: 'delegate',
      description: '',
      parameters: z.object({ q: z.string() }),
      async *execute({ q }, _context, details) {
        const nested = await run(inner, q, { stream: true, signal: details.signal });
        yield* nested;
        await nested.completed;
        return `inner said: ${String(nested.finalOutput)}`;
      },
    });
    const model = new ScriptedModel([[functionCall('delegate', { q: 'hi' }, { callId: 'd1' })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'Outer', model, tools: [delegate] }), 'go', { stream: true });
    const events = await collect(result);
    await result.completed;
    expect(labels(events)).toEqual(['tool_called', 'start(delegate)', 'ctx(delegate)>message_output_created', 'end(delegate)', 'tool_output', 'message_output_created']);
    expect(events.filter((e) => e.type === 'streaming_tool_context_event').map((e) => e.toolCallId)).toContain('d1');
    expect(resultText(model.calls[1], 'd1')).toBe('inner said: inner answer');
    expect(result.newItems.every((item) => item.agent.name === 'Outer')).toBe(true);
  });
});

describe('streamingTool() in a non-streamed run', () => {
  it('runs the generator to the end, drops its events and keeps the output', async () => {
    const log: string[] = [];
    const model = new ScriptedModel([[callReport(4)], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'W', model, tools: [progressTool(log)] }), 'go');
    expect(log).toEqual(['step 1', 'step 2', 'step 3', 'step 4']);
    expect(result.finalOutput).toBe('done');
    expect(resultText(model.calls[1], 'c1')).toBe('report with 4 sections');
    expect(result.newItems.map((i) => i.type)).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item']);
    expect(model.calls.every((c) => !c.streamed)).toBe(true);
  });
});

describe('approvals and tool guardrails (the same as tool())', () => {
  function approvalSetup() {
    const ran: string[] = [];
    const deploy = streamingTool({
      name: 'deploy',
      description: '',
      parameters: z.object({ env: z.string() }),
      needsApproval: async (_ctx, { env }) => env === 'prod',
      async *execute({ env }) {
        ran.push(env);
        yield notify(`deploying ${env}`);
        return `deployed ${env}`;
      },
    });
    const model = new ScriptedModel([[functionCall('deploy', { env: 'prod' }, { callId: 'dp' })], [assistantMessage('shipped')]]);
    return { ran, model, agent: new Agent({ name: 'Ops', model, tools: [deploy] }) };
  }

  it('pauses for approval before the generator starts, then streams when resumed approved', async () => {
    const { ran, model, agent } = approvalSetup();
    const paused = await run(agent, 'ship it', { stream: true });
    const before = await collect(paused);
    await paused.completed;
    expect(labels(before)).toEqual(['tool_called', 'tool_approval_requested']);
    expect(ran).toEqual([]);
    expect(paused.interruptions.map((i) => i.toolName)).toEqual(['deploy']);

    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(agent, paused.state, { stream: true });
    const after = await collect(resumed);
    await resumed.completed;
    expect(labels(after)).toEqual(['start(deploy)', 'notify(deploy):"deploying prod"', 'end(deploy)', 'tool_output', 'message_output_created']);
    expect(ran).toEqual(['prod']);
    expect(resultText(model.calls[1], 'dp')).toBe('deployed prod');
  });

  it('a rejection answers the model without running (or framing) the tool', async () => {
    const { ran, model, agent } = approvalSetup();
    const paused = await run(agent, 'ship it');
    paused.state.reject(paused.interruptions[0]!, { message: 'Not on a Friday.' });
    const resumed = await run(agent, paused.state, { stream: true });
    const events = await collect(resumed);
    await resumed.completed;
    expect(labels(events)).toEqual(['tool_output', 'message_output_created']);
    expect(ran).toEqual([]);
    expect(resultText(model.calls[1], 'dp')).toBe('Not on a Friday.');
  });

  it('a tool input guardrail that rejects keeps the generator from starting', async () => {
    let started = false;
    const guarded = streamingTool({
      name: 'guarded',
      description: '',
      parameters: z.object({ path: z.string() }),
      inputGuardrails: [
        {
          name: 'no_etc',
          run: ({ toolCall }) => ({
            behavior: toolCall.arguments.includes('/etc') ? { type: 'rejectContent', message: 'Path not allowed.' } : { type: 'allow' },
          }),
        },
      ],
      async *execute({ path }) {
        started = true;
        yield notify(path);
        return 'read';
      },
    });
    const model = new ScriptedModel([[functionCall('guarded', { path: '/etc/passwd' }, { callId: 'g1' })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'G', model, tools: [guarded] }), 'go', { stream: true });
    const events = await collect(result);
    await result.completed;
    expect(started).toBe(false);
    expect(labels(events)).toEqual(['tool_called', 'tool_output', 'message_output_created']);
    expect(resultText(model.calls[1], 'g1')).toBe('Path not allowed.');
    expect(result.toolInputGuardrailResults.map((r) => r.guardrail.name)).toEqual(['no_etc']);
  });

  it('a tool output guardrail replaces the output in history', async () => {
    const leaky = streamingTool({
      name: 'leaky',
      description: '',
      parameters: z.object({}),
      outputGuardrails: [{ name: 'redact', run: ({ output }) => ({ behavior: String(output).includes('sk-') ? { type: 'rejectContent', message: '[redacted]' } : { type: 'allow' } }) }],
      async *execute() {
        yield notify('working');
        return 'the key is sk-123';
      },
    });
    const model = new ScriptedModel([[functionCall('leaky', {}, { callId: 'l1' })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'L', model, tools: [leaky] }), 'go', { stream: true });
    const events = await collect(result);
    await result.completed;
    expect(resultText(model.calls[1], 'l1')).toBe('[redacted]');
    const outputItem = events.find((e) => e.type === 'run_item_stream_event' && e.name === 'tool_output');
    expect(JSON.stringify(outputItem)).not.toContain('sk-123');
  });

  // The end event carries what the model sees, so a redacting output guardrail leaks nothing.
  it('tool_stream_end_event carries the guarded output, not the raw one', async () => {
    const leaky = streamingTool({
      name: 'leaky',
      description: '',
      parameters: z.object({}),
      outputGuardrails: [{ name: 'redact', run: () => ({ behavior: { type: 'rejectContent', message: '[redacted]' } }) }],
      async *execute() {
        yield notify('working');
        return 'the key is sk-123';
      },
    });
    const model = new ScriptedModel([[functionCall('leaky', {}, { callId: 'l1' })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'L', model, tools: [leaky] }), 'go', { stream: true });
    const events = await collect(result);
    await result.completed;
    const end = events.find((e): e is ToolStreamEndEvent => e.type === 'tool_stream_end_event');
    expect(end).toBeDefined();
    expect(JSON.stringify(end)).not.toContain('sk-123');
  });
});

describe('bad input', () => {
  it.each([
    ['a string', 'just text', /got the string "just text"/],
    ['a number', 42, /got number 42/],
    ['null', null, /got null/],
    ['an object without a type', { progress: 1 }, /without a string `type`/],
    ['an unknown event type', { type: 'progress', value: 1 }, /unknown type "progress"/],
    ['a notification without data', { type: 'notify' }, /without `data`/],
    ['a notification with a non-string tag', { type: 'notify', data: 1, tag: 7 }, /`tag` is number 7/],
    ['an item event without an item', { type: 'run_item_stream_event', name: 'tool_called' }, /`item` is undefined/],
  ])('yielding %s fails the run with an error naming the tool (streamed and not)', async (_what, value, problem) => {
    for (const stream of [true, false]) {
      let cleanedUp = false;
      let continued = false;
      const bad = streamingTool({
        name: 'sloppy_tool',
        description: '',
        parameters: z.object({}),
        async *execute() {
          try {
            yield notify('fine');
            yield value as never;
            continued = true;
            return 'unreachable';
          } finally {
            cleanedUp = true;
          }
        },
      });
      const model = new ScriptedModel([[functionCall('sloppy_tool', {}, { callId: 's1' })], [assistantMessage('never')]]);
      const agent = new Agent({ name: 'S', model, tools: [bad] });
      let error: unknown;
      const events: RunStreamEvent[] = [];
      if (stream) {
        const result = await run(agent, 'go', { stream: true });
        events.push(...(await collectUntilFailure(result)));
        error = await result.completed.then(() => undefined, (e: unknown) => e);
      } else {
        error = await run(agent, 'go').then(() => undefined, (e: unknown) => e);
      }
      expect(error, `stream: ${stream}`).toBeInstanceOf(ToolCallError);
      const cause = (error as ToolCallError).error;
      expect(cause).toBeInstanceOf(StreamingToolEmissionError);
      expect(cause).toBeInstanceOf(UserError);
      expect(cause.message).toContain('Streaming tool "sloppy_tool"');
      expect(cause.message).toMatch(problem);
      expect(continued).toBe(false);
      expect(cleanedUp).toBe(true);
      expect(model.calls).toHaveLength(1); // the model is not told: it is the tool's bug
      if (stream) expect(labels(events).at(-1)).toMatch(/^end\(sloppy_tool\)!Streaming tool "sloppy_tool"/);
    }
  });

  it('an execute that is not a generator function is an error naming the tool', async () => {
    const notAGenerator = streamingTool({
      name: 'not_a_generator',
      description: '',
      parameters: z.object({}),
      execute: (async () => 'plain') as never,
    });
    const model = new ScriptedModel([[functionCall('not_a_generator', {}, { callId: 'n1' })]]);
    const error = await run(new Agent({ name: 'N', model, tools: [notAGenerator] }), 'go').then(() => undefined, (e: unknown) => e);
    expect((error as ToolCallError).error).toBeInstanceOf(StreamingToolEmissionError);
    expect((error as ToolCallError).error.message).toMatch(/"not_a_generator".*returned a Promise.*async function\*/);
  });

  it.each([
    ['no options', undefined, /expected an options object/],
    ['no execute', { name: 'x', description: '', parameters: z.object({}) }, /`execute` must be an async generator function, got undefined/],
    ['no name', { description: '', parameters: z.object({}), execute: [async function* () {}][0] }, /`name` is required/],
    ['a bad errorFunction', { name: 'x', description: '', parameters: z.object({}), execute: async function* () {}, errorFunction: 'nope' }, /errorFunction/],
    ['a bad needsApproval (checked by tool())', { name: 'x', description: '', parameters: z.object({}), execute: async function* () {}, needsApproval: 'yes' }, /needsApproval/],
  ])('a definition with %s is a UserError', (_what, options, message) => {
    const make = () => streamingTool(options as never);
    expect(make).toThrow(UserError);
    expect(make).toThrow(message);
  });

  it('takes its name from a named execute function, and is marked streaming', () => {
    const t = streamingTool({ description: '', parameters: z.object({}), execute: async function* fetch_rows() { return 1; } });
    expect(t.name).toBe('fetch_rows');
    expect(t.streaming).toBe(true);
    expect(t.type).toBe('function');
  });
});

describe('a streaming tool that throws mid-way', () => {
  function failing(errorFunction?: null | ((ctx: unknown, error: unknown) => string)) {
    return streamingTool({
      name: 'flaky',
      description: '',
      parameters: z.object({}),
      ...(errorFunction === undefined ? {} : { errorFunction }),
      async *execute() {
        yield notify('half way');
        throw new RangeError('disk full');
      },
    });
  }

  it('is handled like any tool error: the model is told (default errorFunction) and the call is framed', async () => {
    const model = new ScriptedModel([[functionCall('flaky', {}, { callId: 'f1' })], [assistantMessage('I will retry later.')]]);
    const result = await run(new Agent({ name: 'F', model, tools: [failing()] }), 'go', { stream: true });
    const events = await collect(result);
    await result.completed;
    expect(labels(events).slice(0, 4)).toEqual(['tool_called', 'start(flaky)', 'notify(flaky):"half way"', expect.stringMatching(/^end\(flaky\)/)]);
    expect(resultText(model.calls[1], 'f1')).toBe('An error occurred while running the tool. Please try again.');
    expect(result.finalOutput).toBe('I will retry later.');
  });

  it('uses a custom errorFunction', async () => {
    const model = new ScriptedModel([[functionCall('flaky', {}, { callId: 'f1' })], [assistantMessage('ok')]]);
    await run(new Agent({ name: 'F', model, tools: [failing((_ctx, e) => `flaky failed: ${(e as Error).name}`)] }), 'go');
    expect(resultText(model.calls[1], 'f1')).toBe('flaky failed: RangeError');
  });

  it('with errorFunction: null fails the run, and tool_stream_end_event carries the error', async () => {
    const model = new ScriptedModel([[functionCall('flaky', {}, { callId: 'f1' })]]);
    const result = await run(new Agent({ name: 'F', model, tools: [failing(null)] }), 'go', { stream: true });
    const events = await collectUntilFailure(result);
    const error = await result.completed.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).error).toBeInstanceOf(RangeError);
    const end = events.find((e): e is ToolStreamEndEvent => e.type === 'tool_stream_end_event');
    expect(end?.error).toEqual({ name: 'RangeError', message: 'disk full' });
    expect(end?.output).toBeUndefined();
  });

  // The error function answers the model, and the end event still reports the error.
  it('with the default errorFunction, tool_stream_end_event still carries the error', async () => {
    const model = new ScriptedModel([[functionCall('flaky', {}, { callId: 'f1' })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'F', model, tools: [failing()] }), 'go', { stream: true });
    const events = await collect(result);
    await result.completed;
    const end = events.find((e): e is ToolStreamEndEvent => e.type === 'tool_stream_end_event');
    expect(end?.error).toEqual({ name: 'RangeError', message: 'disk full' });
  });
});
