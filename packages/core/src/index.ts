import './engine/typeRegistry.js';

export { Agent, defaultHandoff } from './definitions/agent.js';
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
} from './definitions/agent.js';
export type { AgentAsToolOptions, AgentTool, AgentToolStreamEvent, AgentToolStreamHandler } from './definitions/agentTool.js';
export type { AgentToolInvocation } from './state/internal/runRecord.js';
export { tool, defaultToolErrorFunction } from './definitions/tool.js';
export { toolNamespace, type ToolNamespaceOptions } from './definitions/toolNamespace.js';
export { getToolSearchRuntimeToolKey } from './definitions/toolSearch.js';
export {
  hostedMcpTool,
  type HostedMCPTool,
  type HostedMCPToolOptions,
  type HostedMCPApprovalFunction,
  type HostedMCPApprovalFilter,
  type HostedMCPRequireApproval,
} from './definitions/mcp/hostedMcpTool.js';
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
} from './definitions/mcp/mcpTools.js';
export { user, system, assistant, extractAllTextOutput } from './definitions/messages.js';
export { invokeFunctionTool } from './definitions/invokeFunctionTool.js';
export { retryPolicies } from './providers/retryPolicies.js';
export { getLogger, setSensitiveDataLoggingEnabled, type Logger } from './definitions/logger.js';
export type { JsonSchemaDefinition } from './definitions/outputType.js';
export type { ToolOptions, ToolParameters, ToolErrorFunction, ToolApprovalFunction, ToolEnabledFunction } from './definitions/tool.js';
export type { ToolErrorFormatter, ToolErrorFormatterArgs, ToolErrorKind } from './definitions/toolErrorFormatter.js';
export type { OutputGuardrailBlockedMessage, OutputGuardrailBlockedMessageArgs, OutputGuardrailBlockedMessageFormatter } from './definitions/outputGuardrailBlockedMessage.js';
export { Handoff, defaultHandoffToolName, defaultHandoffToolDescription, isHandoff } from './definitions/handoff.js';
export { RunContext, type ApprovalSubject, type ApprovalRequest } from './definitions/runContext.js';
export { RunState } from './state/runState.js';
export { systemClock, type WallClock } from './definitions/wallClock.js';
export type { ContextStrategy } from './state/internal/serialization/readState.js';
export { RunResult, RunResultBase } from './engine/runResult.js';
export { StreamedRunResult } from './engine/streamedRunResult.js';
export { Runner, run, DEFAULT_MAX_TURNS, DEFAULT_STREAM_BUFFER_SIZE } from './engine/runner.js';
export type { RunInputArg } from './engine/runner.js';
export { DEFAULT_RUN_LIMITS, type RunLimits } from './definitions/runLimits.js';
export type { RunConfig, RunOptions, NonStreamRunOptions, StreamRunOptions, SessionInputCallback, ToolCallErrorBehavior, TracingConfig } from './definitions/runConfig.js';
export type { CallModelInputFilter, CallModelInputFilterArgs, ModelInputData } from './definitions/callModelInputFilter.js';
export type { RunErrorKind, RunErrorData, RunErrorHandler, RunErrorHandlerInput, RunErrorHandlerResult, RunErrorHandlers } from './definitions/runErrorHandlers.js';
export { MemorySession, type MemorySessionOptions, type SessionLogger } from './state/memorySession.js';
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
} from './state/sessionHistory.js';
export {
  isOpenAIResponsesCompactionAwareSession,
  isOpenAIResponsesCompactionOwnershipAwareSession,
  type OpenAIResponsesCompactionAwareSession,
  type OpenAIResponsesCompactionOwnershipAwareSession,
} from './state/compactionSession.js';
export { setDefaultModelProvider, getDefaultModelProvider } from './providers/modelProvider.js';
export { MultiProvider, MultiProviderMap, type MultiProviderOptions } from './providers/multiProvider.js';
export { ModelProviderService } from './providers/modelProviderService.js';
export { SessionService } from './state/sessionService.js';
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
} from './definitions/stepRunner.js';
export type { StandardSchemaLike, InferSchemaOutput } from './definitions/internal/schema.js';
export { toFunctionToolName } from './definitions/internal/names.js';
export * from '@baton/types';
export { AgentHooks, RunHooks, EventEmitterDelegate, type AgentHookEvents, type RunHookEvents } from './definitions/lifecycle.js';
export { RuntimeEventEmitter, type EventEmitterEvents } from './definitions/runtimeEventEmitter.js';
