import type { AiSdkUiMessageChunk } from '../uiMessageChunk.js';

/** Resolves once the run's outcome is stored: `true`, or `false` when storing it failed (reported already). */
export type Persisted = Promise<boolean>;

/**
 * Stores a run's outcome when it ends, whether or not anyone still reads its stream: `onEnded`
 * after it finished, paused or was cancelled; `onFailed` after it failed. A failure to store is
 * reported and resolves `false`; it never rejects.
 */
export function settleRun(run: { readonly completed: Promise<unknown> }, onEnded: () => Promise<unknown>, onFailed: () => Promise<unknown>, report: (error: unknown) => void): Persisted {
  return run.completed.then(onEnded, onFailed).then(
    () => true,
    (error: unknown) => {
      report(error);
      return false;
    },
  );
}

/**
 * Holds the stream's last chunk (`finish`, or a failed run's `error`) until the outcome is stored,
 * so a client that answers at once (an Approve right after the pause) finds the run in the store.
 * When storing failed the client gets an `error` chunk instead of `finish`.
 */
export function persistenceGate(persisted: Persisted): TransformStream<AiSdkUiMessageChunk, AiSdkUiMessageChunk> {
  return new TransformStream<AiSdkUiMessageChunk, AiSdkUiMessageChunk>({
    async transform(chunk, controller) {
      if (chunk.type === 'finish' || chunk.type === 'error') {
        const stored = await persisted;
        if (!stored && chunk.type === 'finish') {
          controller.enqueue({ type: 'error', errorText: 'The answer could not be saved; reload the chat.' });
          return;
        }
      }
      controller.enqueue(chunk);
    },
  });
}
