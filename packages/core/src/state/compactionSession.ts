import type { AgentInputItem, RequestUsage, Session } from '@baton/types';
import type { RunContext } from '../definitions/runContext.js';

/**
 * A session that compacts its own history (`OpenAIResponsesCompactionSession` of
 * `@baton/openai-provider` is one): after a run has written its items to the session, the runner
 * calls `runCompaction` with the last response's id and whether it was stored, and adds the usage
 * it reports (one request) to the run's usage. Compaction may replace the stored history.
 */
export interface OpenAIResponsesCompactionAwareSession extends Session {
  runCompaction(
    args?: { responseId?: string | undefined; store?: boolean; compactionMode?: 'previous_response_id' | 'input' | 'auto'; force?: boolean },
    runContext?: RunContext<any>,
    ownership?: object | null,
    modelExchange?: { items: AgentInputItem[]; responseId?: string },
  ): Promise<{ usage: RequestUsage } | null> | { usage: RequestUsage } | null;
}

/**
 * A compaction-aware session that ties an automatic compaction to the history read it would
 * replace: reads hand out an ownership receipt, writes take it back, and `runCompaction` gets it
 * (or `null` when none survived) so it never replaces history it did not read.
 */
export interface OpenAIResponsesCompactionOwnershipAwareSession extends OpenAIResponsesCompactionAwareSession {
  getItemsWithCompactionOwnership(runContext?: RunContext<any>): Promise<{ items: AgentInputItem[]; ownership: object }>;
  addItemsWithCompactionOwnership(items: AgentInputItem[], ownership: object | null, runContext?: RunContext<any>): Promise<void>;
}

export function isOpenAIResponsesCompactionAwareSession(session: Session | undefined | null): session is OpenAIResponsesCompactionAwareSession {
  return typeof (session as Partial<OpenAIResponsesCompactionAwareSession> | undefined | null)?.runCompaction === 'function';
}

export function isOpenAIResponsesCompactionOwnershipAwareSession(session: Session | undefined | null): session is OpenAIResponsesCompactionOwnershipAwareSession {
  if (!isOpenAIResponsesCompactionAwareSession(session)) return false;
  const candidate = session as Partial<OpenAIResponsesCompactionOwnershipAwareSession>;
  return typeof candidate.getItemsWithCompactionOwnership === 'function' && typeof candidate.addItemsWithCompactionOwnership === 'function';
}
