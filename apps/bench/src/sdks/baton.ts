import {
  Agent,
  InputGuardrailTripwireTriggered,
  Runner,
  RunState,
  tool,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type StandardSchemaLike,
} from '@baton/core';
import { z } from 'zod';
import { check, MAX_TURNS, type BenchAdapter, type PausedStateSummary } from './adapter.js';
import { guardrailRun, type GuardrailProbe } from './guardrailScript.js';
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

/** A Baton `Model` (contract in @baton/types) that answers instantly from a script. */
class InstantModel implements Model {
  constructor(private readonly plan: ScriptPlan) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const responseId = nextResponseId();
    return { usage: { ...USAGE }, output: nextOutput(this.plan, request.input, responseId), responseId };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const responseId = nextResponseId();
    const output = nextOutput(this.plan, request.input, responseId);
    yield { type: 'response_started' };
    const itemId = `msg_${responseId}`;
    for (const delta of deltasFor(this.plan, output)) yield { type: 'output_text_delta', delta, itemId };
    yield { type: 'response_done', response: { id: responseId, usage: { ...USAGE }, output } };
  }
}

/**
 * A Baton `Model` that takes the plan's time to answer the final message, and gives up as soon as
 * `request.signal` fires (`guardrailScript.ts` records both).
 */
class TimedModel implements Model {
  constructor(private readonly probe: () => GuardrailProbe) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const { responseId, output } = await this.answer(request);
    return { usage: { ...USAGE }, output, responseId };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const { responseId, output } = await this.answer(request);
    yield { type: 'response_done', response: { id: responseId, usage: { ...USAGE }, output } };
  }

  private async answer(request: ModelRequest) {
    await this.probe().callModel(request.signal);
    const responseId = nextResponseId();
    return { responseId, output: nextOutput({ kind: 'tool-loop', toolTurns: 0 }, request.input, responseId) };
  }
}

/** A Baton `Model` that streams `probe.deltas` text deltas as fast as they are taken (`idleScript.ts`). */
class FloodModel implements Model {
  constructor(private readonly probe: FloodProbe) {}

  async getResponse(): Promise<ModelResponse> {
    throw new Error('the idle-consumer model only streams');
  }

  async *getStreamedResponse(): AsyncIterable<ModelStreamEvent> {
    const responseId = nextResponseId();
    yield { type: 'response_started' };
    const itemId = `msg_${responseId}`;
    for await (const delta of floodDeltas(this.probe)) yield { type: 'output_text_delta', delta, itemId };
    this.probe.finished = true;
    yield { type: 'response_done', response: { id: responseId, usage: { ...USAGE }, output: [message(responseId, floodText(this.probe))] } };
  }
}

const runner = new Runner();

// The cast works around a type gap in @baton/core: its `StandardSchemaLike` declares an issue's
// `path?` without `| undefined`, so under `exactOptionalPropertyTypes` (this repo's tsconfig) a zod 4
// schema is not assignable to `tool({ parameters })`. At runtime zod is used as is.
const stepParameters = z.object({ step: z.number() }) as unknown as StandardSchemaLike<{ step: number }>;

function stepTool(needsApproval: boolean, onCall: () => void, name = STEP_TOOL) {
  return tool({
    name,
    description: 'Advances the benchmark by one step.',
    parameters: stepParameters,
    needsApproval,
    execute: ({ step }) => {
      onCall();
      return `step ${step} ok`;
    },
  });
}

export const adapter: BenchAdapter = {
  sdk: 'baton',

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
      let finalOutput: unknown;
      if (streamed) {
        const result = await runner.run(agent, 'go', { stream: true, maxTurns: MAX_TURNS });
        let events = 0;
        for await (const _event of result) events += 1;
        await result.completed;
        check(events > toolTurns * 2, `baton streamed run produced only ${events} events`);
        finalOutput = result.finalOutput;
      } else {
        finalOutput = (await runner.run(agent, 'go', { maxTurns: MAX_TURNS })).finalOutput;
      }
      check(finalOutput === FINAL_TEXT, `baton final output was ${JSON.stringify(finalOutput)}`);
      check(calls - before === toolTurns, `baton ran the tool ${calls - before} times, expected ${toolTurns}`);
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
      tools: [stepTool(true, () => check(false, 'baton ran a tool that needs approval'))],
    });
    return async () => {
      const result = await runner.run(agent, 'go', { maxTurns: MAX_TURNS });
      check(result.interruptions.length === 1, `baton paused run has ${result.interruptions.length} interruptions`);
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
        'baton',
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
      tools: [stepTool(false, () => (calls += 1)), stepTool(true, () => check(false, 'baton ran a tool that needs approval'), APPROVAL_TOOL)],
    });
    const describe = (state: RunState<unknown, typeof agent>): PausedStateSummary => {
      const items = state.generatedItems;
      return {
        currentTurn: state.currentTurn,
        stepCalls: items.filter((item) => item.type === 'tool_call_item' && item.rawItem.name === STEP_TOOL).length,
        toolOutputs: items.filter((item) => item.type === 'tool_call_output_item').length,
        pending: state.getInterruptions().map((item) => ({ toolName: item.toolName, callId: item.rawItem.callId })),
      };
    };
    return async () => {
      const before = calls;
      const result = await runner.run(agent, 'go', { maxTurns: toolTurns + 10 });
      check(calls - before === toolTurns, `baton ran the step tool ${calls - before} times, expected ${toolTurns}`);
      check(result.interruptions.length === 1, `baton paused run has ${result.interruptions.length} interruptions`);
      const { state } = result;
      return {
        serialize: (other) => (other === undefined ? state : (other as RunState<unknown, typeof agent>)).toString(),
        restore: (serialized) => RunState.fromString(agent, serialized),
        describe: (other) => describe((other ?? state) as RunState<unknown, typeof agent>),
      };
    };
  },

  async idleStream(probe) {
    const agent = new Agent({ name: 'bench', instructions: 'Talk.', model: new FloodModel(probe) });
    const result = await runner.run(agent, 'go', { stream: true, maxTurns: MAX_TURNS, streamBufferSize: IDLE_BUFFER_SIZE });
    return {
      async drain() {
        let received = 0;
        for await (const event of result) {
          if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') received += 1;
        }
        await result.completed;
        check(probe.finished, 'baton idle-consumer run ended before its model finished');
        return received;
      },
    };
  },
};
