export { DurableWorker, type DurableWorkerOptions } from './durableWorker.js';
export {
  DurableRunsClient,
  DEFAULT_APP_NAME,
  DEFAULT_QUEUE_NAME,
  RUN_WORKFLOW_NAME,
  type DurableRunsClientOptions,
  type DurableRunState,
  type DurableRunStatus,
  type StartRunOptions,
  type DecisionMetadata,
  type DecideOptions,
  type RunEvent,
} from './durableRunsClient.js';
export { DurableRunError, type DurableRunErrorReason } from './durableRunError.js';
export { dbosStepRunner, type InWorkflow } from './internal/dbosStepRunner.js';
export type { ApprovalDecision, PendingApproval, Json } from './internal/workflowTypes.js';
