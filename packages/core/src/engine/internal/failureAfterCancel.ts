import type { RunRecord } from '../../state/internal/runRecord.js';
import { isAbortError } from './abortError.js';
import { inCauseChain } from './causeChain.js';

/**
 * What a cancelled streamed run's \`completed\` rejects with, as the reference's streamed runs reject:
 * - nothing (it ends quietly) when its model call, asked to stop, ended as providers end a stopped
 *   call (an abort error) or not at all;
 * - the caller's own reason when the call ended with it (\`signal.abort(reason)\`), also wrapped in
 *   a provider's error;
 * - else the call's own error (a stream that broke as it was stopped).
 */
export function failureAfterCancel(record: RunRecord, signal: AbortSignal | undefined): unknown {
  const failure = record.abortedWith;
  if (failure === undefined || isAbortError(failure)) return undefined;
  const reason: unknown = signal?.aborted === true ? signal.reason : undefined;
  return reason !== undefined && inCauseChain(failure, (link) => link === reason) ? reason : failure;
}
