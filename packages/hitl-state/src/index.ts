export { inspectRunState, type RunStateSummary, type UnsupportedRunStateSummary, type RunStateStatus, type NestedRunSummary } from './inspect.js';
export {
  checkResumable,
  type CheckResumableOptions,
  type ResumabilityIssue,
  type ResumabilityIssueKind,
  type ResumabilityReport,
} from './checkResumable.js';
export { agentIdentities, loadRunState, type AgentIdentity, type LoadRunStateOptions } from './identity.js';
export { approvalRecords, setApprovalExpiries, type ApprovalRecord, type ApprovalStatus } from './approvals.js';
export {
  RunStoreError,
  DEFAULT_LEASE_MS,
  type RunStateStore,
  type StoredRun,
  type StoredRunStatus,
  type RunClaim,
  type ClaimOptions,
  type CommittedStep,
  type CommittedToolOutput,
  type RunStoreErrorReason,
} from './store/runStateStore.js';
export { MemoryRunStateStore } from './store/memoryRunStateStore.js';
export { SqliteRunStateStore, type SqliteDatabase, type SqliteRunStateStoreOptions } from './store/sqliteRunStateStore.js';
export { PostgresRunStateStore, type PostgresPool, type PostgresQueryable, type PostgresRunStateStoreOptions } from './store/postgresRunStateStore.js';
export { resumePausedRun, updatePausedRun, type ResumePausedRunOptions, type ResumePausedRunOutcome } from './resumePausedRun.js';
export { storeStepRunner } from './storeStepRunner.js';
export { withCommittedOutputs } from './legacyToolOutputs.js';
// The format itself lives in @baton/types (so @baton/core can read every version); its versions,
// migrations and reader are public here.
export {
  CURRENT_RUN_STATE_SCHEMA_VERSION,
  SUPPORTED_RUN_STATE_SCHEMA_VERSIONS,
  RUN_STATE_MIGRATIONS,
  migrateRunStateJson,
  readRunStateJson,
  type RunStateMigration,
} from '@baton/types/internal';
export { RunStateError, type RunStateErrorReason, type SerializedRunState } from '@baton/types';
export type { ContextStrategy } from '@baton/core';
