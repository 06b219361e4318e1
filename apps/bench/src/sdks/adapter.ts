import type { SdkName } from '../protocol.js';
import type { GuardrailPlan, GuardrailRunOutcome } from './guardrailScript.js';
import type { FloodProbe } from './idleScript.js';

/**
 * The scenario API both SDK adapters implement. Each factory builds its agent, tools and model once;
 * the returned function performs one run and checks its outcome, so a scenario never measures a
 * run that silently did something else.
 */
export interface BenchAdapter {
  readonly sdk: SdkName;
  /** One run: `toolTurns` turns with one tool call each, then a final message. Resolves when done. */
  toolLoop(toolTurns: number, streamed: boolean): () => Promise<void>;
  /** One run: `toolTurns` turns each calling two of eight realistic tools at once (`toolsetScript.ts`), then a final message. */
  toolsetLoop(toolTurns: number, streamed: boolean): () => Promise<void>;
  /**
   * `toolLoop` with tracing on: spans go to an in-memory processor (`memory`), or are exported over
   * HTTP to a local sink (`otlp`: Baton over OTLP, the reference with its OpenAI traces exporter).
   */
  tracedToolLoop(toolTurns: number, sink: 'memory' | 'otlp'): Promise<TracedLoop>;
  /**
   * `runs` plain runs of one agent started at once (each `toolTurns` tool turns, then the answer),
   * every model answer after a turn of the event loop; resolves when all have finished, each
   * checked (final output, and the tool ran `runs * toolTurns` times in all).
   */
  concurrentRuns(runs: number, toolTurns: number): () => Promise<void>;
  /** One streamed run whose single response is `deltas` text deltas; resolves with the deltas received. */
  textStream(deltas: number): () => Promise<number>;
  /** One run that pauses on a tool needing approval; resolves with the result, to be kept alive. */
  pausedRun(): () => Promise<unknown>;
  /**
   * One plain run of an agent with a timed model and one input guardrail, as `plan` says
   * (`guardrailScript.ts`); resolves (also when the run rejects with the tripwire) once the model
   * request and the guardrail have ended, with what happened when.
   */
  guardrailRun(plan: GuardrailPlan): () => Promise<GuardrailRunOutcome>;
  /**
   * One plain run of `toolTurns` turns with one (step) tool call each, then a call to a tool that
   * needs approval, so the run pauses; resolves with its state and the SDK's serialization API.
   */
  pausedState(toolTurns: number): () => Promise<PausedState>;
  /**
   * Starts one streamed run whose model yields `probe.deltas` text deltas as fast as the SDK takes
   * them (`idleScript.ts`, counting on `probe`), and reads none of its events: resolves as soon as the
   * run has started. Baton's run gets a buffer of `IDLE_BUFFER_SIZE` events.
   */
  idleStream(probe: FloodProbe): Promise<IdleStream>;
}

/** Traced runs, and how to stop tracing once measured (exports flushed, processors removed). */
export interface TracedLoop {
  run(): Promise<void>;
  close(): Promise<void>;
}

/** A paused run's state, with the SDK's own serialization calls. */
export interface PausedState {
  /** `state.toString()`: of the paused run's state (no argument) or of one `restore` returned. */
  serialize(state?: unknown): string;
  /** `RunState.fromString(rootAgent, serialized)`, awaited. */
  restore(serialized: string): Promise<unknown>;
  /** What a state holds: the paused run's own (no argument) or one `restore` returned. */
  describe(state?: unknown): PausedStateSummary;
}

export interface PausedStateSummary {
  /** The state's turn counter. */
  currentTurn: number;
  /** Tool-call items of the step tool, and tool outputs, in the generated items. */
  stepCalls: number;
  toolOutputs: number;
  /** The interruptions (tool approval items) waiting for a decision. */
  pending: Array<{ toolName: string; callId: string }>;
}

/** A streamed run nobody has read from yet. */
export interface IdleStream {
  /** Reads every event until the run ends; resolves with the text deltas received. */
  drain(): Promise<number>;
}

/** The run options both SDKs get: the overhead runs need more than the default ten turns. */
export const MAX_TURNS = 50;

export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`bench sanity check failed: ${message}`);
}
