import * as Effect from 'effect/Effect';
import { UserError, type FunctionTool, type MCPServer, type MCPTool } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { listServerTools, mcpToolsToFunctionTools } from '../../../definitions/mcp/mcpTools.js';
import { serverPrefixedToolNames } from '../../../definitions/mcp/serverToolNames.js';
import { asRunFailure, type RunFailure } from '../failures.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { LoopEnv } from './loopEnv.js';
import { annotate, span } from './span.js';

const NONE: readonly FunctionTool<any>[] = Object.freeze([]);

/**
 * The current agent's MCP tools for this turn: each server connected if the run must connect it,
 * listed (or read from its cache) in a `baton.mcp.list_tools` span, filtered and converted. A
 * server that cannot list fails the run with a `UserError` naming it (the model would otherwise
 * silently lose tools it was told about).
 */
export function agentMcpTools(agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<readonly FunctionTool<any>[], RunFailure> {
  const servers = agent.mcpServers;
  if (servers.length === 0) return Effect.succeed(NONE);
  return Effect.forEach(servers, (server) => serverListing(server, agent, record, env)).pipe(
    Effect.flatMap((listings) =>
      Effect.tryPromise({
        try: async () => {
          // With `includeServerInToolNames`, each tool is offered under its server-prefixed name.
          const names = agent.mcpConfig.includeServerInToolNames === true ? await serverPrefixedToolNames(servers, listings, await agent.getMcpToolReservedNames(record.context)) : undefined;
          return mcpToolsToFunctionTools<any>(servers, listings, agent.mcpConfig, names);
        },
        catch: asRunFailure,
      }),
    ),
  );
}

function serverListing(server: MCPServer, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<MCPTool[], RunFailure> {
  return Effect.tryPromise({
    try: async () => {
      await env.mcpConnections.ensure(server);
      return listServerTools(server, { runContext: record.context, agent });
    },
    catch: (error) =>
      error instanceof UserError
        ? error
        : new UserError(`MCP server "${server.name}" could not list its tools: ${error instanceof Error ? error.message : String(error)}`),
  }).pipe(
    Effect.tap((tools) => annotate(env, () => ({ 'baton.mcp.tools': tools.map((t) => t.name) }))),
    // Under the agent span, as the reference lists tools before the turn starts.
    span(env, 'baton.mcp.list_tools', () => ({ 'baton.mcp.server': server.name }), { parent: 'agent' }),
  );
}

/**
 * MCP tools first, then the agent's function tools (the reference's order). A name both offer is
 * the collision rule of handoffs: a `UserError`, or with `toolNameCollisionPolicy: 'warn'` a warning
 * and the MCP tool is not offered.
 */
export function withMcpTools(
  agent: Agent<any, any>,
  mcpTools: readonly FunctionTool<any>[],
  functionTools: readonly FunctionTool<any>[],
  env: LoopEnv,
): Effect.Effect<readonly FunctionTool<any>[], RunFailure> {
  if (mcpTools.length === 0) return Effect.succeed(functionTools);
  const taken = new Set(functionTools.map((t) => t.name));
  const clashing = mcpTools.filter((t) => taken.has(t.name));
  if (clashing.length === 0) return Effect.succeed([...mcpTools, ...functionTools]);
  const names = clashing.map((t) => `"${t.name}" (MCP server "${t.mcp?.server}")`).join(', ');
  const message = `Agent "${agent.name}": the name ${names} is used by more than one tool or handoff.`;
  if (env.toolNameCollisionPolicy === 'error') return Effect.fail(new UserError(message));
  return Effect.logWarning(`${message} The MCP tool is not offered.`).pipe(
    Effect.as([...mcpTools.filter((t) => !taken.has(t.name)), ...functionTools]),
  );
}
