import { UserError, type HostedTool, type RunToolApprovalItem } from '@baton/types';
import type { RunContext } from '../runContext.js';

/** Decides a remote MCP server's approval request in code (the run does not pause). */
export type HostedMCPApprovalFunction<TContext = unknown> = (
  context: RunContext<TContext>,
  item: RunToolApprovalItem,
) => Promise<{ approve: boolean; reason?: string }> | { approve: boolean; reason?: string };

/** Tools chosen by name, or the server's read-only tools (the API's `tool_names` / `read_only` are accepted too). */
export interface HostedMCPApprovalFilter {
  toolNames?: string[];
  readOnly?: boolean;
  tool_names?: string[];
  read_only?: boolean;
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
type WirePolicy = 'always' | 'never' | { always?: WireFilter; never?: WireFilter };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The approval policy as the Responses API takes it (`tool_names`, `read_only`), checked as the
 * reference checks it: both spellings of a filter's keys are accepted (not both at once), anything
 * else is a `UserError` saying what is wrong, where.
 */
function normalizeRequireApproval(value: HostedMCPRequireApproval | undefined, label: string): WirePolicy {
  const invalid = (message: string) => new UserError(`Invalid hosted MCP requireApproval: ${message} (hostedMcpTool "${label}")`);
  if (value === undefined || value === 'never') return 'never';
  if (value === 'always') return 'always';
  if (typeof value === 'string') throw invalid(`string value must be "always" or "never", got "${value}".`);
  if (!isPlainObject(value)) throw invalid('value must be "always", "never", or an object with always/never filters.');
  const keys = Object.keys(value);
  if (keys.length === 0) throw invalid('object value must include at least one of always or never.');
  const stray = keys.find((key) => key !== 'always' && key !== 'never');
  if (stray !== undefined) throw invalid(`object value has unsupported key "${stray}".`);
  const policy: { always?: WireFilter; never?: WireFilter } = {};
  for (const key of ['always', 'never'] as const) {
    if (value[key] !== undefined) policy[key] = wireFilter(value[key], key, invalid);
  }
  const neverNames = new Set(policy.never?.tool_names ?? []);
  const overlap = policy.always?.tool_names?.find((name) => neverNames.has(name));
  if (overlap !== undefined) throw invalid(`tool "${overlap}" cannot be listed in both always and never.`);
  return policy;
}

function wireFilter(filter: unknown, path: 'always' | 'never', invalid: (message: string) => UserError): WireFilter {
  if (!isPlainObject(filter)) throw invalid(`${path} must be an object with toolNames or readOnly.`);
  const stray = Object.keys(filter).find((key) => !['toolNames', 'tool_names', 'readOnly', 'read_only'].includes(key));
  if (stray !== undefined) throw invalid(`${path} has unsupported key "${stray}".`);
  if ('toolNames' in filter && 'tool_names' in filter) throw invalid(`${path} must not specify both toolNames and tool_names.`);
  if ('readOnly' in filter && 'read_only' in filter) throw invalid(`${path} must not specify both readOnly and read_only.`);
  const wire: WireFilter = {};
  const names = filter.toolNames ?? filter.tool_names;
  if (names !== undefined) {
    if (!Array.isArray(names)) throw invalid(`${path}.toolNames must be an array.`);
    if (names.some((name) => typeof name !== 'string' || name === '')) throw invalid(`${path}.toolNames must contain only non-empty strings.`);
    wire.tool_names = [...(names as string[])];
  }
  const readOnly = filter.readOnly ?? filter.read_only;
  if (readOnly !== undefined) {
    if (typeof readOnly !== 'boolean') throw invalid(`${path}.readOnly must be a boolean.`);
    wire.read_only = readOnly;
  }
  if (wire.tool_names === undefined && wire.read_only === undefined) throw invalid(`${path} must include toolNames or readOnly.`);
  return wire;
}
