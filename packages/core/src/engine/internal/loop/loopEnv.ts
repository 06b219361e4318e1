import type * as Effect from 'effect/Effect';
import type { RunConfig, ToolCallErrorBehavior } from '../../../definitions/runConfig.js';
import type { RunHooks } from '../../../definitions/lifecycle.js';
import type { ToolErrorFormatter } from '../../../definitions/toolErrorFormatter.js';
import type { OutputGuardrailBlockedMessage } from '../../../definitions/outputGuardrailBlockedMessage.js';
import type { CallModelInputFilter } from '../../../definitions/callModelInputFilter.js';
import type { RunErrorHandlers } from '../../../definitions/runErrorHandlers.js';
import type {
  HandoffInputFilter,
  InputGuardrail,
  Model,
  ModelProvider,
  ModelSettings,
  OutputGuardrail,
  RunItem,
  RunStreamEvent,
} from '@baton/types';
import type { McpConnections } from './mcpConnections.js';
import type { DirectSource } from '../eventChannel.js';
import type { StepRunner } from '../../../definitions/stepRunner.js';
import type { RunLimits } from '../../../definitions/runLimits.js';

/** The resolved configuration one run of the loop works with. */
export interface LoopEnv {
  readonly modelProvider: ModelProvider;
  /** Overrides every agent's model when set. */
  readonly model: string | Model | undefined;
  /** Merged over each agent's settings. */
  readonly modelSettings: ModelSettings | undefined;
  readonly inputGuardrails: readonly InputGuardrail<any>[];
  readonly outputGuardrails: readonly OutputGuardrail<any, any>[];
  readonly toolNotFoundBehavior: ToolCallErrorBehavior;
  readonly invalidToolInputBehavior: ToolCallErrorBehavior;
  readonly handoffInputFilter: HandoffInputFilter | undefined;
  /** Edits each model call's input and instructions. */
  readonly callModelInputFilter: CallModelInputFilter<any> | undefined;
  /** Turn a max-turns, refusal or invalid-output failure into a final output. */
  readonly errorHandlers: RunErrorHandlers<any, any> | undefined;
  /** The run's `RunState`, handed to error handlers. */
  readonly publicState: unknown;
  /** The runner: where run lifecycle events go (the agents' own go to each agent). */
  readonly hooks: RunHooks<any>;
  /** Writes the text the model receives for a rejected or unknown tool call. */
  readonly toolErrorFormatter: ToolErrorFormatter<any> | undefined;
  readonly outputGuardrailBlockedMessage: OutputGuardrailBlockedMessage<any> | undefined;
  /** Run a tool's input guardrails before asking for approval (and again after approval). */
  readonly preApprovalInputGuardrails: boolean;
  /** Bounds kept whatever the model does (see `RunLimits`), defaults filled in. */
  readonly limits: Required<RunLimits>;
  /** A handoff named like a tool: fail with `UserError` (default) or warn and leave the handoff out. */
  readonly toolNameCollisionPolicy: 'error' | 'warn';
  /** Streamed runs call `getStreamedResponse` and forward model events. */
  readonly streamed: boolean;
  /** Sends an event to the caller; suspends while the caller's buffer is full. */
  readonly emit: (event: RunStreamEvent) => Effect.Effect<void>;
  /** The runner configuration of this run, handed down to nested runs of agent tools. */
  readonly runConfig: RunConfig;
  /** Called with the items about to be replaced by a handoff input filter (so a session keeps them). */
  readonly beforeHistoryRewrite: (items: readonly RunItem[]) => void;
  /** The same destination for hot paths (model deltas): a synchronous offer, and a wait for room. */
  readonly sink: EventSink;
  /** Whether events are observed at all (tools skip building them when not). */
  readonly observed: boolean;
  /** The run's step runner; undefined for the default one (effects run as they are, no keys or codecs). */
  readonly stepRunner: StepRunner | undefined;
  /** MCP servers this run connected, closed when it ends. */
  readonly mcpConnections: McpConnections;
  /** The caller's \`signal\` (its reason is what a cancelled run rejects with, and what tools see). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Whether a tracer listens to this run, decided once when the loop starts: an untraced run skips
   * spans, annotations and span contexts without looking at its fiber for each.
   */
  readonly traced: boolean;
  /** Told the turn number when a turn's model request starts (a streamed result counts turns with it). */
  readonly onTurnStart?: ((turn: number) => void) | undefined;
}

/**
 * The run's settings as the runner resolves them, made for this one run. `traced` is decided by the
 * loop when it starts (it sets the field in place: a copy of some thirty fields for each run held a
 * kilobyte more per run in flight).
 */
export type LoopSettings = Omit<LoopEnv, 'traced'> & { traced: boolean };

export interface EventSink {
  /** False when the buffer is full; then wait for `whenWritable` and offer again. */
  tryOffer(event: RunStreamEvent): boolean;
  whenWritable(): Promise<void>;
  /** A sink with a reader (a streamed run's channel) lets the reader read a model stream directly. */
  readonly direct?: DirectSink;
}

/** The reader's buffer, as a model stream forwarded to it sees it (see `EventChannel`). */
export interface DirectSink extends EventSink {
  readonly readerWaiting: boolean;
  attachSource(source: DirectSource<RunStreamEvent>): void;
  detachSource(source: DirectSource<RunStreamEvent>): void;
}

/** Where a non-streamed run's events go. */
export const discardingSink: EventSink = { tryOffer: () => true, whenWritable: () => Promise.resolve() };
