export type * from './protocol.js';
export { Usage, type UsageData } from './usage.js';
export { RequestUsage, type RequestUsageData } from './requestUsage.js';
export type * from './modelSettings.js';
export type * from './modelRetry.js';
export * from './defaultModel.js';
export type * from './model.js';
export type * from './modelStreamEvent.js';
export type * from './registry.js';
export type * from './runContext.js';
export type * from './guardrail.js';
export type * from './tool.js';
export type * from './toolOutputCustomData.js';
export type * from './mcp.js';
export * from './runItem.js';
export { getTransferMessage } from './handoff.js';
export type * from './handoff.js';
export * from './events.js';
export * from './errors.js';
export type * from './session.js';
// The serialized form's types; its schema, versions and reader are in `@baton/types/internal`.
export type {
  ReasoningItemIdPolicy,
  SerializedAgentRef,
  SerializedApprovalRecord,
  SerializedApprovalRequest,
  SerializedRunItem,
  SerializedRunState,
  SerializedToolApprovalItem,
  SerializedTrace,
} from './runStateSchema.js';
export { RunStateError, type RunStateErrorDetails, type RunStateErrorReason } from './runStateError.js';
export { ToolInterruption } from './toolInterruption.js';
import * as protocol from './protocolSchemas.js';
export { protocol };
export { isRunError, isModelProviderError, type RunError, type ModelProviderError } from './runError.js';
export type * from './shell.js';
export type * from './editor.js';
export type * from './computer.js';
export type * from './localTools.js';
export {
  CLIENT_TOOL_SEARCH_EXECUTOR,
  attachClientToolSearchExecutor,
  getClientToolSearchExecutor,
  type ClientToolSearchExecutor,
  type ClientToolSearchExecutorArgs,
  type ClientToolSearchExecutorResult,
} from './toolSearch.js';
