import { UserError, type BatonTypeRegistry, type FunctionCallItem, type FunctionTool, type RegisteredAgent, type RunStreamEvent } from '@baton/types';
import type { ToolApprovalFunction, ToolEnabledFunction } from './tool.js';
import type { AgentToolInputBuilder } from './internal/agentToolInput.js';

// What `agent.asTool()` takes and gives. The run types the options name (`RunConfig`,
// `RunOptions`, `RunResult`) reach this layer through @baton/types' registry, which
// `engine/typeRegistry.ts` fills: their own modules name `Agent`, so importing them here would
// close a loop through `agent.ts`. They resolve to exactly those types.
type Registered<K extends string> = BatonTypeRegistry extends { [P in K]: infer T } ? T : unknown;
type RegisteredRunConfig = Registered<'runConfig'>;
type RegisteredRunOptions = Registered<'runOptions'>;
type RegisteredRunResult = Registered<'runResult'>;

export interface AgentToolStreamEvent {
  event: RunStreamEvent;
  agent: RegisteredAgent;
  /** The call the nested run answers (undefined when the tool was invoked directly without one). */
  toolCall?: FunctionCallItem | undefined;
}

export type AgentToolStreamHandler = (event: AgentToolStreamEvent) => void | Promise<void>;

/** The agent-tool call a nested run answered (the reference's \`agentToolInvocation\`). */
export interface AgentToolInvocation {
  readonly toolName: string;
  readonly toolCallId: string | undefined;
  readonly toolArguments: string | undefined;
}

/** The nested run's result as \`customOutputExtractor\` receives it: the call it answered is always set. */
export type CompletedAgentToolRunResult = RegisteredRunResult & { readonly agentToolInvocation: AgentToolInvocation };

export interface AgentAsToolOptions<TContext = unknown> {
  /** Defaults to the agent's name (non-alphanumerics become `_`). */
  toolName?: string;
  toolDescription?: string;
  /** Turns the nested run's result (a `RunResult`) into the tool output; defaults to its final output. */
  customOutputExtractor?: (result: CompletedAgentToolRunResult) => string | Promise<string>;
  needsApproval?: boolean | ToolApprovalFunction<TContext, { input: string }>;
  isEnabled?: boolean | ToolEnabledFunction<TContext>;
  /** Receives every event of the nested run (which then runs streamed). */
  onStream?: AgentToolStreamHandler;
  /**
   * Forward the nested run's events to the parent's stream, wrapped as
   * `streaming_tool_context_event`; they never enter the parent's history.
   */
  streaming?: boolean;
  /** Configuration for the nested runner (a `RunConfig`); inherits the parent run's configuration otherwise. */
  runConfig?: RegisteredRunConfig;
  /**
   * Options for the nested run (`RunOptions`, for example `maxTurns`, `context`, `errorHandlers`).
   * Streaming is the tool's; a `signal` given here stops the nested run as the tool call's own signal does.
   */
  runOptions?: Omit<RegisteredRunOptions, 'stream'>;
  maxTurns?: number | null;
  /** A structured input schema for the tool (zod / Standard Schema or a JSON object schema) instead of `{ input: string }`. */
  parameters?: unknown;
  /** Builds the nested agent's input from the validated arguments. */
  inputBuilder?: AgentToolInputBuilder<any>;
  /** Hand the input schema to the `inputBuilder` (and the default input text). */
  includeInputSchema?: boolean;
  /** How a paused nested run resumes; see {@link AgentToolResumeOptions}. */
  resumeState?: AgentToolResumeOptions;
}

/**
 * Which context a paused nested run resumes with. `'merge'` (default): the nested run's context
 * (`runOptions.context`, else the parent's) with the parent's approval decisions added, so a decision
 * taken on the outer interruption reaches the nested run. `'replace'`: that context as it is (a
 * nested run with its own context may then interrupt again). `'preferSerialized'`: the context
 * written with the nested run's paused state.
 */
export interface AgentToolResumeOptions {
  contextStrategy?: 'merge' | 'replace' | 'preferSerialized';
}

/** A function tool that runs an agent, with `.on(type | '*', handler)` for its nested events. */
export interface AgentTool<TContext = unknown> extends FunctionTool<TContext> {
  on(type: RunStreamEvent['type'] | '*', handler: AgentToolStreamHandler): AgentTool<TContext>;
}

/** Builds the tool that runs `agent` as a nested run: the engine's, since only it can run agents. */
export type AgentToolFactory = <TContext>(agent: RegisteredAgent, options: AgentAsToolOptions<TContext>) => AgentTool<TContext>;

let factory: AgentToolFactory | undefined;

/** Called once by the engine when it loads (`engine/runner.ts`): from then on `asTool()` builds its tools. */
export function provideAgentToolFactory(make: AgentToolFactory): void {
  factory = make;
}

/** The tool `agent.asTool(options)` returns. */
export function makeAgentTool<TContext>(agent: RegisteredAgent, options: AgentAsToolOptions<TContext>): AgentTool<TContext> {
  if (!factory) {
    throw new UserError(`Agent "${agent.name}" asTool: Baton's run engine is not loaded; import Agent from '@baton/core' (or '@baton/agents'), which loads it.`);
  }
  return factory(agent, options);
}
