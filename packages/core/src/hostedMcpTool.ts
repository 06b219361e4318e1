import { UserError, type HostedTool, type RunToolApprovalItem } from '@baton/types';
import type { RunContext } from './runContext.js';

/** Decides a remote MCP server's approval request in code (the run does not pause). */
export type HostedMCPApprovalFunction<TContext = unknown> = (
  context: RunContext<TContext>,
  item: RunToolApprovalItem,
) => Promise<{ approve: boolean; reason?: string }> | { approve: boolean; reason?: string };

/** Tools chosen by name, or the server's read-only tools. */
export interface HostedMCPApprovalFilter {
  toolNames?: string[];
  readOnly?: boolean;
}

export type HostedMCPRequireApproval = 'always' | 'never' | { always?: HostedMCPApprovalFilter; never?: HostedMCPApprovalFilter };

export type HostedMCPToolOptions<TContext = unknown> = {
  serverLabel: string;
  /** Only these of the server's tools (a list, or `{ toolNames }`). */
  allowedTools?: string[] | { toolNames?: string[] };
  serverDescription?: string;
  deferLoading?: boolean;
  authorization?: string;
  headers?: Record<string, string>;
  /** Which calls the server asks approval for; `'never'` (default) runs them all. */
  requireApproval?: HostedMCPRequireApproval;
  /** Answers approval requests in code; without it, a request pauses the run like a function tool's approval. */
  onApproval?: HostedMCPApprovalFunction<TContext>;
} & ({ serverUrl?: string } | { connectorId: string });

export interface HostedMCPTool extends HostedTool {
  name: 'hosted_mcp';
}

/**
 * A remote MCP server the provider (OpenAI's Responses API) calls itself during the request. With
 * `requireApproval`, a call waits for an approval: `onApproval` decides it in code, or the run
 * pauses with a `ToolApprovalItem` that `state.approve` / `reject` answer (serialized across the
 * pause like any approval); the answer reaches the server as an `mcp_approval_response`.
 */
export function hostedMcpTool<TContext = unknown>(options: HostedMCPToolOptions<TContext>): HostedMCPTool {
  if (typeof options !== 'object' || options === null) throw new UserError('hostedMcpTool(): expected an options object.');
  if (typeof options.serverLabel !== 'string' || options.serverLabel === '') throw new UserError('hostedMcpTool(): `serverLabel` must be a non-empty string.');
  if (options.onApproval !== undefined && typeof options.onApproval !== 'function') {
    throw new UserError(`hostedMcpTool "${options.serverLabel}": \`onApproval\` must be a function.`);
  }
  const approval = normalizeRequireApproval(options.requireApproval, options.serverLabel);
  const source =
    'connectorId' in options
      ? { connector_id: options.connectorId, authorization: options.authorization, headers: options.headers }
      : 'serverUrl' in options
        ? { server_url: options.serverUrl, authorization: options.authorization, headers: options.headers }
        : {};
  // The reference's fields, in its order (it sends what the Responses API takes).
  const providerData: Record<string, unknown> =
    approval === 'never'
      ? {
          type: 'mcp',
          server_label: options.serverLabel,
          ...source,
          require_approval: 'never',
          allowed_tools: allowedToolsFilter(options.allowedTools),
          defer_loading: options.deferLoading,
          server_description: options.serverDescription,
        }
      : {
          type: 'mcp',
          server_label: options.serverLabel,
          ...source,
          allowed_tools: allowedToolsFilter(options.allowedTools),
          defer_loading: options.deferLoading,
          require_approval: approval,
          on_approval: options.onApproval,
          server_description: options.serverDescription,
        };
  return { type: 'hosted_tool', name: 'hosted_mcp', providerData };
}

function allowedToolsFilter(allowed: HostedMCPToolOptions['allowedTools']): { tool_names: string[] } | undefined {
  if (allowed === undefined) return undefined;
  return { tool_names: Array.isArray(allowed) ? [...allowed] : [...(allowed.toolNames ?? [])] };
}

type WireFilter = { tool_names?: string[]; read_only?: boolean };

function normalizeRequireApproval(value: HostedMCPRequireApproval | undefined, label: string): 'always' | 'never' | { always?: WireFilter; never?: WireFilter } {
  const invalid = (message: string) => new UserError(`hostedMcpTool "${label}": invalid \`requireApproval\`: ${message}`);
  if (value === undefined || value === 'never') return 'never';
  if (value === 'always') return 'always';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`expected 'always', 'never' or { always, never }, got ${JSON.stringify(value)}.`);
  const out: { always?: WireFilter; never?: WireFilter } = {};
  for (const [key, filter] of Object.entries(value)) {
    if (key !== 'always' && key !== 'never') throw invalid(`unknown key "${key}".`);
    if (filter === undefined) continue;
    if (typeof filter !== 'object' || filter === null) throw invalid(`\`${key}\` must be { toolNames?, readOnly? }.`);
    const wire: WireFilter = {};
    if (filter.toolNames !== undefined) {
      if (!Array.isArray(filter.toolNames) || filter.toolNames.some((n) => typeof n !== 'string' || n === '')) throw invalid(`\`${key}.toolNames\` must list non-empty tool names.`);
      wire.tool_names = [...filter.toolNames];
    }
    if (filter.readOnly !== undefined) {
      if (typeof filter.readOnly !== 'boolean') throw invalid(`\`${key}.readOnly\` must be a boolean.`);
      wire.read_only = filter.readOnly;
    }
    if (wire.tool_names === undefined && wire.read_only === undefined) throw invalid(`\`${key}\` must name toolNames or readOnly.`);
    out[key] = wire;
  }
  const overlap = out.always?.tool_names?.find((name) => out.never?.tool_names?.includes(name));
  if (overlap !== undefined) throw invalid(`tool "${overlap}" is both always and never approved.`);
  return out;
}
