/**
 * For Baton's own packages (core, hitl-state, the providers, ...): the serialized run-state
 * schema, its versions and migrations, its reader, and the raw-usage snapshot. No stability promise, and not re-exported by
 * `@baton/core` or `@baton/agents`; read and write states with `RunState` and `@baton/hitl-state`.
 */
export * from './runStateSchema.js';
export * from './runStateVersions.js';
export * from './runStateReader.js';
export { formatJsonPath } from './runStateError.js';
export { MAX_RUN_STATE_DEPTH, checkRunStateStructure } from './runStateStructure.js';
export { isReferenceRunState, NEWEST_REFERENCE_RUN_STATE_MINOR } from './referenceRunState.js';
export { snapshotRawUsage } from './rawUsage.js';
export { CompactionItemValidationError } from './compactionItemValidationError.js';
