import type { AgentInputItem } from '@baton/types';
import type { Agent } from './agent.js';

/** What a model call will send: the input items and the system instructions. */
export interface ModelInputData {
  input: AgentInputItem[];
  instructions?: string;
}

export interface CallModelInputFilterArgs<TContext = unknown> {
  /** A copy: changing it changes nothing unless it is returned. */
  modelData: ModelInputData;
  agent: Agent<TContext, any>;
  context: TContext | undefined;
}

/**
 * Edits the input (and instructions) of every model call of a run; the run's own history is unchanged.
 *
 * By default the filter sees a fresh copy of the input on every call. A filter with
 * `preserveInputIdentity = true` sees the run's own prepared items instead — the same object for
 * the same history entry on every call (string input included), so it can recognise what it saw
 * before by identity; it must not change them in place. The model always receives a copy of
 * what the filter returns.
 */
export type CallModelInputFilter<TContext = unknown> = ((args: CallModelInputFilterArgs<TContext>) => ModelInputData | Promise<ModelInputData>) & {
  preserveInputIdentity?: boolean;
};
