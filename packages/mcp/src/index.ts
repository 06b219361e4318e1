export { MCPServerStdio, type MCPServerStdioOptions, type DefaultMCPServerStdioOptions, type FullCommandMCPServerStdioOptions } from './mcpServerStdio.js';
export { MCPServerStreamableHttp, type MCPServerStreamableHttpOptions } from './mcpServerStreamableHttp.js';
export { MCPServerSSE, type MCPServerSSEOptions } from './mcpServerSSE.js';
export { ClientMCPServer, type MCPServerOptions } from './internal/clientServer.js';
export { MCPServers, connectMcpServers, type MCPServersOptions } from './mcpServers.js';
// The conversion to function tools lives in core (agents list their servers' tools there); here
// under the names MCP users look for.
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
} from '@baton/core';
export type {
  MCPServer,
  MCPTool,
  MCPContent,
  CallToolResult,
  CallToolResultContent,
  MCPCallToolOptions,
  MCPToolFilterCallable,
  MCPToolFilterContext,
  MCPToolFilterStatic,
  MCPToolMetaContext,
  MCPToolMetaResolver,
  MCPToolErrorFunction,
  MCPToolApprovalPolicy,
  MCPToolApprovalContext,
} from '@baton/types';
