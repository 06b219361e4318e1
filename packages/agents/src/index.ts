/**
 * @baton/agents: everything under the names of `@openai/agents`, so a program written for it runs
 * against Baton by changing the import. Like the reference, it makes the OpenAI provider the
 * default: an agent with a model name (or none) runs on `OpenAIProvider`, which reads
 * `OPENAI_API_KEY` / `OPENAI_BASE_URL` when the first model is needed, not at import. It is all of
 * Baton: streaming tools and transports (`@baton/streaming`), paused-run tooling and stores
 * (`@baton/hitl-state`) and MCP servers (`@baton/mcp`, whose MCP SDK loads on the first connect) too. The scripted model and the fake OpenAI server live at
 * `@baton/agents/testing`, which needs `@baton/testing` installed beside it. Also like the
 * reference, every run is traced and exported to OpenAI's traces dashboard (with the tracing
 * export key, else `OPENAI_API_KEY`; without either, nothing is sent): `setTracingDisabled(true)`,
 * `setTraceProcessors([...])` or the `tracingDisabled` run option change that.
 */
import { setDefaultModelProvider } from '@baton/core';
import { OpenAIProvider } from '@baton/openai-provider';
import { setDefaultOpenAITracingExporter } from '@baton/tracing';

export * from '@baton/core';
export * from '@baton/guardrails';
export {
  handoff,
  getHandoff,
  removeAllTools,
  removeReasoning,
  keepOnlyUserMessages,
  keepLastItems,
  summarizeHistory,
  composeInputFilters,
  RECOMMENDED_PROMPT_PREFIX,
  promptWithHandoffInstructions,
} from '@baton/handoffs';
export type {
  HandoffConfig,
  HandoffConfigWithInput,
  HandoffEnabledOption,
  HandoffEnabledPredicate,
  HandoffInputType,
  InferHandoffInput,
  OnHandoffCallback,
  SummarizeHistoryOptions,
} from '@baton/handoffs';
export * from '@baton/openai-provider';
export * from '@baton/streaming';
export * from '@baton/hitl-state';
export * from '@baton/tracing';
// The conversion helpers (getAllMcpTools, ...) come with core; the servers with @baton/mcp.
export {
  MCPServerStdio,
  MCPServerStreamableHttp,
  MCPServerSSE,
  MCPServers,
  connectMcpServers,
  ClientMCPServer,
  type MCPServerOptions,
  type MCPServerStdioOptions,
  type DefaultMCPServerStdioOptions,
  type FullCommandMCPServerStdioOptions,
  type MCPServerStreamableHttpOptions,
  type MCPServerSSEOptions,
  type MCPServersOptions,
} from '@baton/mcp';
// The local shell and editor behind the shell and apply-patch tools, and the reference's applyDiff.
export * from '@baton/local-tools';
export { withResponsesWebSocketSession, type ResponsesWebSocketSession, type ResponsesWebSocketSessionOptions } from './responsesWebSocketSession.js';
// Explicit, so it wins over core's MultiProvider from `export *`: this one has OpenAI built in.
export { MultiProvider } from './multiProvider.js';

setDefaultModelProvider(new OpenAIProvider());
setDefaultOpenAITracingExporter();
