import { UserError } from '@baton/types';

/**
 * A streaming tool's generator yielded something that is not a stream event. It names the tool and
 * what was yielded. It is a programming error, so it fails the run (as a `ToolCallError` wrapping
 * this error) instead of being shown to the model by the tool's `errorFunction`.
 */
export class StreamingToolEmissionError extends UserError {
  constructor(
    public readonly toolName: string,
    problem: string,
  ) {
    super(
      `Streaming tool "${toolName}" yielded something that is not a stream event (${problem}). ` +
        "Yield { type: 'notify', data, tag? } or an event of a run the tool drives; return the tool's output.",
    );
  }
}
