import { Usage } from '@baton/types';
import { isOpenAIResponsesCompactionAwareSession, isOpenAIResponsesCompactionOwnershipAwareSession } from '../compactionSession.js';
import { isRunContextAwareSession } from '../sessionHistory.js';
import type { RunRecord } from './runRecord.js';

/**
 * After a run has written its items to a compaction-aware session: asks the session to compact
 * (`runCompaction({ responseId, store })`, with the last response's id and the agent's `store`
 * setting when known; `compactionMode: 'input'` after a resumed approval, see `SessionProgress`), as
 * the reference's runner does, and counts the compaction request's usage in
 * the run's usage. A session that declines returns null. Baton hands out no ownership receipts, so an
 * ownership-aware session gets `null` for one (it compacts only what it may replace without one).
 * A compaction that fails is the run's error: the items are already saved.
 */
export async function compactSession(record: RunRecord): Promise<void> {
  const progress = record.session;
  const session = progress?.session;
  if (!progress || !isOpenAIResponsesCompactionAwareSession(session)) return;
  const responseId = record.modelResponses.at(-1)?.responseId;
  const store = record.currentAgent.modelSettings?.store;
  const compactionMode = progress.compactFromInput ? ('input' as const) : undefined;
  const args =
    responseId === undefined && store === undefined && compactionMode === undefined
      ? undefined
      : { ...(responseId === undefined ? {} : { responseId }), ...(store === undefined ? {} : { store }), ...(compactionMode === undefined ? {} : { compactionMode }) };
  const result = isOpenAIResponsesCompactionOwnershipAwareSession(session)
    ? await session.runCompaction(args, progress.runContext, null)
    : isRunContextAwareSession(session)
      ? await session.runCompaction(args, progress.runContext)
      : await session.runCompaction(args);
  if (!result) return;
  const usage = result.usage;
  record.context.usage.add(
    new Usage({
      requests: 1,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.totalTokens,
      inputTokensDetails: usage.inputTokensDetails,
      outputTokensDetails: usage.outputTokensDetails,
      requestUsageEntries: [usage],
    }),
  );
}
