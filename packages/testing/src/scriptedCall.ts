import type { AgentOutputItem, ModelRequest, ModelResponse } from '@baton/types';

/** One recorded call: what the runner asked for. */
export interface RecordedModelCall {
  /** The zero-based position of this call in `ScriptedModel.calls`. */
  readonly index: number;
  readonly streamed: boolean;
  /**
   * The request as it was at call time, frozen, with its data (input, settings, tools, handoffs)
   * copied; runtime objects such as the abort signal, functions and class instances are the
   * originals.
   */
  readonly request: Readonly<ModelRequest>;
}

/**
 * A complete response (its `usage` a `Usage` instance) or the output-list shorthand, which counts
 * as one request and gets the id `scripted-response-<call number>`.
 */
export type ScriptedModelResponse = ModelResponse | AgentOutputItem[];
