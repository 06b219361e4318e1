/**
 * `@baton/testing/session-contract`: the session contract kit. One vitest suite that every `Session`
 * kind runs (MemorySession, SqliteSession, PostgresSession, yours). Needs vitest (a peer dependency).
 *
 * @module session-contract
 */
export { describeSessionContract, SESSION_CONTRACT_CASES, CORE_GAPS } from './sessionContract/describeSessionContract.js';
export type { SessionContractOptions, SessionContractRuntime, ContractRunResult, SessionCase, CaseContext } from './sessionContract/contractTypes.js';
