import './typeRegistry.js';

export { Agent, defaultHandoff } from './agent.js';
export type {
  AgentOptions,
  AgentOutputType,
  HandoffsOutputUnion,
  AgentInstructions,
  FunctionToolResult,
  ResolvedAgentOutput,
  ToolToFinalOutputFunction,
  ToolUseBehavior,
  ToolsToFinalOutputResult,
} from './agent.js';
export type { AgentAsToolOptions, AgentTool, AgentToolStreamEvent, AgentToolStreamHandler } from './internal/agentTool.js';
export type { AgentToolInvocation } from './internal/runRecord.js';
export { tool, defaultToolErrorFunction } from './tool.js';
export {
  hostedMcpTool,
  type HostedMCPTool,
  type HostedMCPToolOptions,
  type HostedMCPApprovalFunction,
  type HostedMCPApprovalFilter,
  type HostedMCPRequireApproval,
} from './hostedMcpTool.js';
export {
  getAllMcpTools,
  mcpToFunctionTool,
  invalidateServerToolsCache,
  createMCPToolStaticFilter,
  defaultMCPToolCacheKey,
  type GetAllMcpToolsOptions,
  type MCPConfig,
  type MCPFunctionToolConversionOptions,
  type MCPToolCacheKeyGenerator,
} from './mcpTools.js';
export { user, system, assistant, extractAllTextOutput } from './messages.js';
export { invokeFunctionTool } from './invokeFunctionTool.js';
export { retryPolicies } from './retryPolicies.js';
export { getLogger, setSensitiveDataLoggingEnabled, type Logger } from './logger.js';
export type { JsonSchemaDefinition } from './outputType.js';
export type { ToolOptions, ToolParameters, ToolErrorFunction, ToolApprovalFunction, ToolEnabledFunction } from './tool.js';
export type { ToolErrorFormatter, ToolErrorFormatterArgs, ToolErrorKind } from './toolErrorFormatter.js';
export type { OutputGuardrailBlockedMessage, OutputGuardrailBlockedMessageArgs, OutputGuardrailBlockedMessageFormatter } from './outputGuardrailBlockedMessage.js';
export { Handoff, defaultHandoffToolName, defaultHandoffToolDescription, isHandoff } from './handoff.js';
export { RunContext, type ApprovalSubject, type ApprovalRequest } from './runContext.js';
export { RunState } from './runState.js';
export { systemClock, type WallClock } from './wallClock.js';
export type { ContextStrategy } from './internal/serialization/readState.js';
export { RunResult, RunResultBase } from './runResult.js';
export { StreamedRunResult } from './streamedRunResult.js';
export { Runner, run, DEFAULT_MAX_TURNS, DEFAULT_STREAM_BUFFER_SIZE } from './runner.js';
export type { RunInputArg } from './runner.js';
export { DEFAULT_RUN_LIMITS, type RunLimits } from './runLimits.js';
export type { RunConfig, RunOptions, NonStreamRunOptions, StreamRunOptions, SessionInputCallback, ToolCallErrorBehavior, TracingConfig } from './runConfig.js';
export type { CallModelInputFilter, CallModelInputFilterArgs, ModelInputData } from './callModelInputFilter.js';
export type { RunErrorKind, RunErrorData, RunErrorHandler, RunErrorHandlerInput, RunErrorHandlerResult, RunErrorHandlers } from './runErrorHandlers.js';
export { MemorySession, type MemorySessionOptions, type SessionLogger } from './memorySession.js';
export {
  applySessionHistoryMutations,
  isRunContextAwareSession,
  isSessionHistoryRewriteAwareSession,
  isSessionHistoryTransactionAwareSession,
  type RunContextAwareSession,
  type SessionHistoryAppendItemsTransaction,
  type SessionHistoryMutation,
  type SessionHistoryReplaceFunctionCallMutation,
  type SessionHistoryReplaceSuffixTransaction,
  type SessionHistoryRewriteArgs,
  type SessionHistoryRewriteAwareSession,
  type SessionHistoryTransaction,
  type SessionHistoryTransactionArgs,
  type SessionHistoryTransactionAwareSession,
} from './sessionHistory.js';
export { setDefaultModelProvider, getDefaultModelProvider } from './modelProvider.js';
export { MultiProvider, MultiProviderMap, type MultiProviderOptions } from './multiProvider.js';
export { ModelProviderService } from './modelProviderService.js';
export { SessionService } from './sessionService.js';
export {
  StepRunnerService,
  stepRunnerLayer,
  defaultStepRunner,
  makeStepRunner,
  nestedStepRunner,
  type StepRunner,
  type Step,
  type StepKind,
  type StepCodec,
  type JsonValue,
} from './stepRunner.js';
export type { StandardSchemaLike, InferSchemaOutput } from './internal/schema.js';
export { toFunctionToolName } from './internal/names.js';
export * from '@baton/types';
export { AgentHooks, RunHooks, EventEmitterDelegate, type AgentHookEvents, type RunHookEvents } from './lifecycle.js';
export { RuntimeEventEmitter, type EventEmitterEvents } from './runtimeEventEmitter.js';
