/**
 * `@baton/testing/contract`: the provider contract kit. One vitest suite that every `Model`
 * implementation runs against the local fake vendor servers. Needs vitest (a peer dependency).
 */
export { describeModelContract, type MakeContractModel, type ModelContractOptions } from './contract/modelContract.js';
export { answer, request as contractRequest, type Answer, type CallMode } from './contract/answers.js';
