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

/** Edits the input (and instructions) of every model call of a run; the run's own history is unchanged. */
export type CallModelInputFilter<TContext = unknown> = (args: CallModelInputFilterArgs<TContext>) => ModelInputData | Promise<ModelInputData>;
