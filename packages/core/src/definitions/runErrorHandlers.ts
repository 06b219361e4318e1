import type { AgentInputItem, AgentOutputItem, MaxTurnsExceededError, ModelBehaviorError, ModelRefusalError, ModelResponse, RunItem } from '@baton/types';
import type { Agent } from './agent.js';
import type { RunContext } from './runContext.js';

/** The failures an error handler may turn into a final output (the reference's kinds). */
export type RunErrorKind = 'maxTurns' | 'modelRefusal' | 'invalidFinalOutput';

/** What a handler learns about the run that failed. */
export interface RunErrorData<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>> {
  input: string | AgentInputItem[];
  newItems: RunItem[];
  history: AgentInputItem[];
  output: AgentOutputItem[];
  rawResponses: ModelResponse[];
  lastAgent?: TAgent;
  /** The run's state (a `RunState`). */
  state?: unknown;
  /** Only for type inference of the context. */
  readonly __context?: TContext;
}

export interface RunErrorHandlerInput<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>> {
  error: MaxTurnsExceededError | ModelRefusalError | ModelBehaviorError;
  context: RunContext<TContext>;
  runData: RunErrorData<TContext, TAgent>;
}

/** A final output instead of the error; `includeInHistory` (default true) adds it as an assistant message. */
export interface RunErrorHandlerResult {
  finalOutput: unknown;
  includeInHistory?: boolean;
}

export type RunErrorHandler<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>> = (
  input: RunErrorHandlerInput<TContext, TAgent>,
) => RunErrorHandlerResult | void | Promise<RunErrorHandlerResult | void>;

/** Per-kind handlers, and a `default` for the kinds without one. Returning nothing lets the error through. */
export type RunErrorHandlers<TContext = unknown, TAgent extends Agent<any, any> = Agent<any, any>> = Partial<
  Record<RunErrorKind, RunErrorHandler<TContext, TAgent>>
> & { default?: RunErrorHandler<TContext, TAgent> };
