import type { CallToolResult, MCPServer, RunContextContract, ToolOutputCustomData } from '@baton/types';
import { copyForExtractor } from '../internal/extractorCopy.js';

interface KeptResult {
  runContext: RunContextContract<unknown>;
  serverName: string;
  toolName: string;
  toolDisplayName: string;
  args: Record<string, unknown>;
  result: CallToolResult;
  output: unknown;
}

/**
 * The results of one MCP tool's calls, kept from the server's answer until the call's output is
 * final, for the server's `customDataExtractor` (which sees the whole result, `_meta` included).
 * Kept per run context (so runs sharing the tool never see each other's calls, and a finished
 * run's are collected with it) and by call id; taken once, as the output item is made.
 */
export class McpCallResults {
  readonly #byRun = new WeakMap<object, Map<string, KeptResult>>();

  keep(runContext: RunContextContract<unknown>, callId: string, kept: KeptResult): void {
    let byCall = this.#byRun.get(runContext);
    if (byCall === undefined) this.#byRun.set(runContext, (byCall = new Map()));
    byCall.set(callId, kept);
  }

  /** The server extractor's answer for the call, given what the model is sent; nothing when the call never reached the server (a guardrail rejected it). */
  extract(server: MCPServer, runContext: RunContextContract<unknown>, callId: string, toolOutput: unknown): ToolOutputCustomData | null | undefined | Promise<ToolOutputCustomData | null | undefined> {
    const byCall = this.#byRun.get(runContext);
    const kept = byCall?.get(callId);
    byCall?.delete(callId);
    if (kept === undefined || server.customDataExtractor === undefined) return undefined;
    const { result } = kept;
    return server.customDataExtractor({
      runContext: kept.runContext,
      serverName: kept.serverName,
      toolName: kept.toolName,
      toolDisplayName: kept.toolDisplayName,
      arguments: copyForExtractor(kept.args),
      ...(result._meta !== undefined ? { resultMeta: copyForExtractor(result._meta) } : {}),
      ...(result.structuredContent !== undefined ? { structuredContent: copyForExtractor(result.structuredContent) } : {}),
      ...(result.isError !== undefined ? { isError: result.isError } : {}),
      toolOutput,
    });
  }
}
