import type { RunLimits } from './runLimits.js';
import type * as Tracer from 'effect/Tracer';
import type {
  AgentInputItem,
  HandoffInputFilter,
  InputGuardrail,
  Model,
  ModelProvider,
  ModelSettings,
  OutputGuardrail,
  ReasoningItemIdPolicy,
  Session,
} from '@baton/types';
import type { RunContext } from './runContext.js';
import type { ToolErrorFormatter } from './toolErrorFormatter.js';
import type { OutputGuardrailBlockedMessage } from './outputGuardrailBlockedMessage.js';
import type { CallModelInputFilter } from './callModelInputFilter.js';
import type { RunErrorHandlers } from './runErrorHandlers.js';
import type { StepRunner } from './stepRunner.js';

/** Per-run tracing settings (the reference's `TracingConfig`). */
export interface TracingConfig {
  apiKey?: string;
  includeTaskAndTurnSpans?: boolean;
}

/** What to do when the model names a tool that does not exist, or sends invalid arguments. */
export type ToolCallErrorBehavior = 'return_error_to_model' | 'raise_error';

/** Combines a session's history with the new input into the run's input. */
export type SessionInputCallback = (historyItems: AgentInputItem[], newItems: AgentInputItem[]) => AgentInputItem[] | Promise<AgentInputItem[]>;
/** Runner-wide configuration; every field may also be given per run. */
export interface RunConfig {
  /** Resolves model names; defaults to the provider set with `setDefaultModelProvider`. */
  modelProvider?: ModelProvider;
  /** Overrides every agent's model. */
  model?: string | Model;
  /** Merged over every agent's model settings. */
  modelSettings?: ModelSettings;
  /** Run before the starting agent's own input guardrails. */
  inputGuardrails?: InputGuardrail<any>[];
  /** Run before the final agent's own output guardrails. */
  outputGuardrails?: OutputGuardrail<any, any>[];
  /** Applies to handoffs that have no filter of their own. */
  handoffInputFilter?: HandoffInputFilter;
  /** Edits the input and instructions of every model call (the run's history is unchanged). */
  callModelInputFilter?: CallModelInputFilter<any>;
  /** Turn a max-turns, model refusal or invalid final output failure into a final output. */
  errorHandlers?: RunErrorHandlers<any, any>;
  /** Writes the text the model receives for a rejected (or unknown) tool call; run options override the Runner's. */
  toolErrorFormatter?: ToolErrorFormatter<any>;
  /** What replaces a tool output an output guardrail blocked as the final output (see `OutputGuardrailBlockedMessage`). */
  outputGuardrailBlockedMessage?: OutputGuardrailBlockedMessage<any>;
  /** A call to a tool the agent does not have: tell the model (default) or fail with `ModelBehaviorError`. */
  toolNotFoundBehavior?: ToolCallErrorBehavior;
  /**
   * Tool arguments that are not JSON or fail the schema: answered as the reference answers them
   * (default: the runner's text for JSON it cannot parse, the tool's error function for the schema),
   * or, with \`'raise_error'\` (Baton only), the run fails with \`ModelBehaviorError\`.
   */
  invalidToolInputBehavior?: ToolCallErrorBehavior;
  /**
   * Tool execution policy. `preApprovalInputGuardrails` runs a tool's input guardrails before asking
   * for approval too; `maxFunctionToolConcurrency` (a whole number, at least 1) caps how many tool
   * calls of one response run at once (with `limits.maxConcurrentToolCalls`, the lower wins).
   */
  toolExecution?: { preApprovalInputGuardrails?: boolean; maxFunctionToolConcurrency?: number };
  /** Bounds the run keeps whatever the model does (concurrent tool calls, tool output size, a stalled model stream); see `RunLimits`. Run options override the Runner's, key by key. */
  limits?: RunLimits;
  /** A handoff whose tool name is already taken: `'error'` (default, `UserError`) or `'warn'` (the handoff is left out). */
  toolNameCollisionPolicy?: 'error' | 'warn';
  /**
   * Receives the run's spans (`baton.run`, `baton.turn`, `baton.model`, `baton.tool`,
   * `baton.handoff`, `baton.guardrail.*`). Effect users can instead provide a tracer (or an OTLP
   * layer from `effect/observability`) to `runEffect`.
   */
  tracer?: Tracer.Tracer;
  /**
   * Runs every effect the loop performs on the outside world (model calls, tools, guardrails,
   * handoff callbacks, generated ids) as a keyed step; a durable engine records and replays them.
   * Default: each effect runs as it is. Nested agent-tool runs inherit it. Effect users can
   * instead provide `StepRunnerService` to `runEffect`.
   */
  stepRunner?: StepRunner;
  /** Default 10; `null` for no limit. */
  maxTurns?: number | null;
  /**
   * The reference's tracing settings, read by the tracing package (`@baton/tracing`, included in
   * `@baton/agents`). Without it installed they change nothing. `traceIncludeSensitiveData`
   * (default true) lets model inputs and outputs and tool arguments and results into spans.
   */
  tracingDisabled?: boolean;
  traceIncludeSensitiveData?: boolean;
  /** The trace's name (default `'Agent workflow'`). */
  workflowName?: string;
  traceId?: string;
  groupId?: string;
  traceMetadata?: Record<string, string>;
  /** `apiKey`: the key traces of this run are exported with; `includeTaskAndTurnSpans` (default true). */
  tracing?: TracingConfig;
  /** How many events a streamed run buffers before it waits for the consumer. Default 256. */
  streamBufferSize?: number;
  /**
   * `'omit'` drops reasoning items' ids when they go back to the model (and from `history`,
   * `output` and the session). Run options override the state's (kept from the paused run),
   * which overrides the Runner's. Default `'preserve'`.
   */
  reasoningItemIdPolicy?: ReasoningItemIdPolicy;
  /** How a session's history and the new input combine into a run's input (default: history, then input); a run's own option wins. */
  sessionInputCallback?: SessionInputCallback;
}

export interface RunOptions<TContext = unknown> extends Omit<RunConfig, 'modelProvider'> {
  /** Your own context object (or a `RunContext`), handed to tools, guardrails and callbacks. */
  context?: TContext | RunContext<TContext>;
  /** Aborting cancels the run: the model request and tools in flight see the abort. */
  signal?: AbortSignal;
  stream?: boolean;
  /** Conversation memory: its history is prepended to the input, and the run's items appended to it. */
  session?: Session;
  /** How the session's history and the new input combine into the run's input (default: history, then input). */
  sessionInputCallback?: SessionInputCallback;
  /** Continue a conversation the provider stores (Responses API): only new items are sent. */
  previousResponseId?: string;
  /** A provider-side conversation to run in (Responses API): only new items are sent. */
  conversationId?: string;
}

export type NonStreamRunOptions<TContext = unknown> = RunOptions<TContext> & { stream?: false };
export type StreamRunOptions<TContext = unknown> = RunOptions<TContext> & { stream: true };
