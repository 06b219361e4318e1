import type { Model, ModelRequest, ModelResponse, RunState, StreamEvent } from '@openai/agents';
import { z } from 'zod';
import type { SdkName } from '../protocol.js';
import { check, MAX_TURNS, type BenchAdapter, type PausedStateSummary } from './adapter.js';
import { guardrailRun, type GuardrailProbe } from './guardrailScript.js';
import { TOOLSET, TOOLSET_CALLS_PER_TURN } from './toolsetScript.js';
import { floodDeltas, floodText, IDLE_BUFFER_SIZE, type FloodProbe } from './idleScript.js';
import {
  APPROVAL_TOOL,
  deltasFor,
  FINAL_TEXT,
  message,
  nextOutput,
  nextResponseId,
  STEP_TOOL,
  USAGE,
  type ScriptPlan,
} from './instantScript.js';

/**
 * The SDK a bench program runs on: `@openai/agents`, or `@baton/agents` given in its place. The one
 * adapter below is written against the reference's API and runs unchanged on both, which is
 * itself a check of Baton's drop-in promise. The few places the SDKs differ are marked `SDK difference`.
 */
export type AgentsSdk = typeof import('@openai/agents');

/**
 * Where a traced run's spans go; `count()` is how many ended so far (a run that records none is
 * refused); `close()` flushes and removes the processors and turns tracing off again.
 */
async function tracingSink(sdk: AgentsSdk, sdkName: SdkName, sink: 'memory' | 'otlp'): Promise<{ count: () => number; close: () => Promise<void> }> {
  let ended = 0;
  const memory = {
    start() {},
    async onTraceStart() {},
    async onTraceEnd() {},
    async onSpanStart() {},
    async onSpanEnd() {
      ended += 1;
    },
    async shutdown() {},
    async forceFlush() {},
  };
  const stop = async (flush: () => Promise<void> = async () => {}) => {
    await flush();
    sdk.setTraceProcessors([]);
    sdk.setTracingDisabled(true);
  };
  if (sink === 'memory') {
    sdk.setTraceProcessors([memory as never]);
    return { count: () => ended, close: () => stop() };
  }
  // Exporting over HTTP to a local sink: Baton over OTLP (the OpenTelemetry SDK's exporter), the
  // reference with its default exporter (batched JSON posts to the traces ingest). Plus a counter.
  const { exportSink } = await import('./exportSink.js');
  const endpoint = await exportSink();
  const exporting =
    sdkName === 'baton'
      ? (await import('@baton/tracing/opentelemetry')).otlpTracingProcessor({ url: endpoint.url, serviceName: 'bench' })
      : new sdk.BatchTraceProcessor(new sdk.OpenAITracingExporter({ apiKey: 'sk-bench', endpoint: endpoint.url }));
  sdk.setTraceProcessors([exporting as never, memory as never]);
  return {
    count: () => ended,
    close: () =>
      stop(async () => {
        await exporting.shutdown();
        await endpoint.close();
      }),
  };
}

/** The bench scenarios on `sdk` (`sdkName` labels its results and its failed checks). */
export function makeAdapter(sdk: AgentsSdk, sdkName: SdkName): BenchAdapter {
  /** A `Model` that answers instantly (or on the next turn of the event loop, with `answerAfterIo`). */
  class InstantModel implements Model {
    constructor(private readonly plan: ScriptPlan) {}

    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      if (this.plan.kind === 'tool-loop' && this.plan.answerAfterIo) await new Promise((resolve) => setImmediate(resolve));
      const responseId = nextResponseId();
      return { usage: new sdk.Usage({ ...USAGE }), output: nextOutput(this.plan, request.input, responseId), responseId };
    }

    async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
      const responseId = nextResponseId();
      const output = nextOutput(this.plan, request.input, responseId);
      yield { type: 'response_started' };
      const itemId = `msg_${responseId}`;
      for (const delta of deltasFor(this.plan, output)) yield { type: 'output_text_delta', delta, itemId };
      yield { type: 'response_done', response: { id: responseId, usage: { ...USAGE }, output } };
    }
  }

  /**
   * A `Model` that takes the plan's time to answer the final message, and gives up as
   * soon as `request.signal` fires, if the SDK passes one (`guardrailScript.ts` records both).
   */
  class TimedModel implements Model {
    constructor(private readonly probe: () => GuardrailProbe) {}

    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      const { responseId, output } = await this.answer(request);
      return { usage: new sdk.Usage({ ...USAGE }), output, responseId };
    }

    async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
      const { responseId, output } = await this.answer(request);
      yield { type: 'response_done', response: { id: responseId, usage: { ...USAGE }, output } };
    }

    private async answer(request: ModelRequest) {
      await this.probe().callModel(request.signal);
      const responseId = nextResponseId();
      return { responseId, output: nextOutput({ kind: 'tool-loop', toolTurns: 0 }, request.input, responseId) };
    }
  }

  /** A `Model` that streams `probe.deltas` text deltas as fast as they are taken (`idleScript.ts`). */
  class FloodModel implements Model {
    constructor(private readonly probe: FloodProbe) {}

    async getResponse(): Promise<ModelResponse> {
      throw new Error('the idle-consumer model only streams');
    }

    async *getStreamedResponse(): AsyncIterable<StreamEvent> {
      const responseId = nextResponseId();
      yield { type: 'response_started' };
      const itemId = `msg_${responseId}`;
      for await (const delta of floodDeltas(this.probe)) yield { type: 'output_text_delta', delta, itemId };
      this.probe.finished = true;
      yield { type: 'response_done', response: { id: responseId, usage: { ...USAGE }, output: [message(responseId, floodText(this.probe))] } };
    }
  }

  const { Agent, InputGuardrailTripwireTriggered, Runner, RunState: State, tool } = sdk;
  // SDK difference: only the reference has tracing to turn off (Baton's tracing is issue 12); the
  // child process also sets OPENAI_AGENTS_DISABLE_TRACING=1.
  if ('setTracingDisabled' in sdk && typeof sdk.setTracingDisabled === 'function') sdk.setTracingDisabled(true);
  const runner = new Runner({ tracingDisabled: true });

  function stepTool(needsApproval: boolean, onCall: () => void, name = STEP_TOOL) {
    return tool({
      name,
      description: 'Advances the benchmark by one step.',
      parameters: z.object({ step: z.number() }),
      needsApproval,
      execute: ({ step }) => {
        onCall();
        return `step ${step} ok`;
      },
    });
  }

  /** One run of `agent` on 'go', plain or streamed (every event consumed); its final output and event count. */
  async function runToEnd(agent: InstanceType<typeof Agent<unknown, 'text'>>, streamed: boolean): Promise<{ finalOutput: unknown; events: number }> {
    if (!streamed) return { finalOutput: (await runner.run(agent, 'go', { maxTurns: MAX_TURNS })).finalOutput, events: 0 };
    const result = await runner.run(agent, 'go', { stream: true, maxTurns: MAX_TURNS });
    let events = 0;
    for await (const _event of result) events += 1;
    await result.completed;
    return { finalOutput: result.finalOutput, events };
  }

  return {
    sdk: sdkName,

    toolLoop(toolTurns, streamed) {
      let calls = 0;
      const agent = new Agent({
        name: 'bench',
        instructions: 'Call the step tool until told otherwise.',
        model: new InstantModel({ kind: 'tool-loop', toolTurns }),
        tools: [stepTool(false, () => (calls += 1))],
      });
      return async () => {
        const before = calls;
        const { finalOutput, events } = await runToEnd(agent, streamed);
        if (streamed) check(events > toolTurns * 2, `${sdkName} streamed run produced only ${events} events`);
        check(finalOutput === FINAL_TEXT, `${sdkName} final output was ${JSON.stringify(finalOutput)}`);
        check(calls - before === toolTurns, `${sdkName} ran the tool ${calls - before} times, expected ${toolTurns}`);
      };
    },

    toolsetLoop(toolTurns, streamed) {
      let calls = 0;
      const agent = new Agent({
        name: 'bench',
        instructions: 'Use the tools to help the customer.',
        model: new InstantModel({ kind: 'toolset', toolTurns }),
        tools: TOOLSET.map((entry) =>
          tool({
            name: entry.name,
            description: entry.description,
            parameters: entry.parameters,
            execute: () => {
              calls += 1;
              return { ok: true, tool: entry.name };
            },
          }),
        ),
      });
      const expectedCalls = toolTurns * TOOLSET_CALLS_PER_TURN;
      return async () => {
        const before = calls;
        const { finalOutput } = await runToEnd(agent, streamed);
        check(finalOutput === FINAL_TEXT, `${sdkName} final output was ${JSON.stringify(finalOutput)}`);
        check(calls - before === expectedCalls, `${sdkName} ran the tools ${calls - before} times, expected ${expectedCalls}`);
      };
    },

    async tracedToolLoop(toolTurns, sink) {
      let calls = 0;
      const spans = await tracingSink(sdk, sdkName, sink);
      // SDK difference: the child turns tracing off globally (OPENAI_AGENTS_DISABLE_TRACING) for the
      // other scenarios; this one turns it on for its own runner and processors.
      sdk.setTracingDisabled(false);
      const tracedRunner = new Runner({ tracingDisabled: false });
      const agent = new Agent({
        name: 'bench',
        instructions: 'Call the step tool until told otherwise.',
        model: new InstantModel({ kind: 'tool-loop', toolTurns }),
        tools: [stepTool(false, () => (calls += 1))],
      });
      const run = async () => {
        const before = calls;
        const spansBefore = spans.count();
        const { finalOutput } = await tracedRunner.run(agent, 'go', { maxTurns: MAX_TURNS });
        check(finalOutput === FINAL_TEXT, `${sdkName} final output was ${JSON.stringify(finalOutput)}`);
        check(calls - before === toolTurns, `${sdkName} ran the tool ${calls - before} times, expected ${toolTurns}`);
        check(spans.count() > spansBefore + toolTurns, `${sdkName} recorded only ${spans.count() - spansBefore} spans for a traced run`);
      };
      return { run, close: spans.close };
    },

    concurrentRuns(runs, toolTurns) {
      let calls = 0;
      const agent = new Agent({
        name: 'bench',
        instructions: 'Call the step tool until told otherwise.',
        model: new InstantModel({ kind: 'tool-loop', toolTurns, answerAfterIo: true }),
        tools: [stepTool(false, () => (calls += 1))],
      });
      return async () => {
        const before = calls;
        const outputs = await Promise.all(Array.from({ length: runs }, async () => (await runner.run(agent, 'go', { maxTurns: MAX_TURNS })).finalOutput));
        check(outputs.every((output) => output === FINAL_TEXT), `${sdkName} concurrent runs did not all answer ${JSON.stringify(FINAL_TEXT)}`);
        check(calls - before === runs * toolTurns, `${sdkName} ran the tool ${calls - before} times in ${runs} concurrent runs, expected ${runs * toolTurns}`);
      };
    },

    textStream(deltas) {
      const agent = new Agent({ name: 'bench', instructions: 'Talk.', model: new InstantModel({ kind: 'text', deltas }) });
      return async () => {
        const result = await runner.run(agent, 'go', { stream: true, maxTurns: MAX_TURNS });
        let received = 0;
        for await (const event of result) {
          if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') received += 1;
        }
        await result.completed;
        return received;
      };
    },

    pausedRun() {
      const agent = new Agent({
        name: 'bench',
        instructions: 'Call the step tool.',
        model: new InstantModel({ kind: 'tool-loop', toolTurns: 1 }),
        tools: [stepTool(true, () => check(false, `${sdkName} ran a tool that needs approval`))],
      });
      return async () => {
        const result = await runner.run(agent, 'go', { maxTurns: MAX_TURNS });
        check(result.interruptions.length === 1, `${sdkName} paused run has ${result.interruptions.length} interruptions`);
        return result;
      };
    },

    guardrailRun(plan) {
      let probe: GuardrailProbe | undefined;
      const current = (): GuardrailProbe => {
        check(probe !== undefined, 'no guardrail run in progress');
        return probe;
      };
      const agent = new Agent({
        name: 'bench',
        instructions: 'Answer.',
        model: new TimedModel(current),
        inputGuardrails: [{ name: 'bench_guardrail', runInParallel: plan.runInParallel, execute: () => current().runGuardrail() }],
      });
      return () =>
        guardrailRun(
          sdkName,
          plan,
          async (next) => {
            probe = next;
            return (await runner.run(agent, 'go', { maxTurns: MAX_TURNS })).finalOutput;
          },
          (error) => error instanceof InputGuardrailTripwireTriggered,
        );
    },

    pausedState(toolTurns) {
      let calls = 0;
      const agent = new Agent({
        name: 'bench',
        instructions: 'Call the step tool, then the approval tool.',
        model: new InstantModel({ kind: 'pause', toolTurns }),
        tools: [stepTool(false, () => (calls += 1)), stepTool(true, () => check(false, `${sdkName} ran a tool that needs approval`), APPROVAL_TOOL)],
      });
      const describe = (state: RunState<unknown, typeof agent>): PausedStateSummary => {
        const items = state._generatedItems;
        return {
          currentTurn: state._currentTurn,
          stepCalls: items.filter((item) => item.type === 'tool_call_item' && (item.rawItem as { name?: string }).name === STEP_TOOL).length,
          toolOutputs: items.filter((item) => item.type === 'tool_call_output_item').length,
          pending: state.getInterruptions().map((item) => ({
            toolName: item.toolName ?? (item.rawItem as { name: string }).name,
            callId: (item.rawItem as { callId: string }).callId,
          })),
        };
      };
      return async () => {
        const before = calls;
        const result = await runner.run(agent, 'go', { maxTurns: toolTurns + 10 });
        check(calls - before === toolTurns, `${sdkName} ran the step tool ${calls - before} times, expected ${toolTurns}`);
        check(result.interruptions.length === 1, `${sdkName} paused run has ${result.interruptions.length} interruptions`);
        const { state } = result;
        return {
          serialize: (other) => (other === undefined ? state : (other as RunState<unknown, typeof agent>)).toString(),
          restore: (serialized) => State.fromString(agent, serialized),
          describe: (other) => describe((other ?? state) as RunState<unknown, typeof agent>),
        };
      };
    },

    async idleStream(probe) {
      const agent = new Agent({ name: 'bench', instructions: 'Talk.', model: new FloodModel(probe) });
      // SDK difference: Baton bounds a stream's buffer (`streamBufferSize`, given IDLE_BUFFER_SIZE);
      // the reference has no bound and ignores the option: its queue takes whatever the run produces.
      const options = { stream: true as const, maxTurns: MAX_TURNS, streamBufferSize: IDLE_BUFFER_SIZE };
      const result = await runner.run(agent, 'go', options);
      return {
        async drain() {
          let received = 0;
          for await (const event of result) {
            if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') received += 1;
          }
          await result.completed;
          check(probe.finished, `${sdkName} idle-consumer run ended before its model finished`);
          return received;
        },
      };
    },
  };
}
