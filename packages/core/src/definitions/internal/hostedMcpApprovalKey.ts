/**
 * Who a remote MCP server's approval request is: the request id, the server that asked and the
 * remote tool. Read from a `hosted_tool_call` item (or an approval item holding one) in either of
 * the shapes providers send: the Responses API's (`type: 'mcp_approval_request'`, `id`,
 * `server_label`, `name`) or the realtime API's (`itemId`, `serverLabel`). Anything else, including
 * a hosted call whose provider data says it is another kind of call, is not an MCP approval
 * request: `undefined`.
 */
export interface HostedMcpApprovalIdentity {
  requestId?: string;
  serverLabel?: string;
  toolName?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function hostedMcpApprovalIdentity(subject: unknown): HostedMcpApprovalIdentity | undefined {
  const holder = subject as { rawItem?: unknown } | null | undefined;
  const raw = (typeof holder?.rawItem === 'object' && holder.rawItem !== null ? holder.rawItem : subject) as
    | { type?: unknown; id?: unknown; name?: unknown; providerData?: Record<string, unknown> }
    | null
    | undefined;
  if (raw?.type !== 'hosted_tool_call') return undefined;
  const data = raw.providerData;
  if (typeof data !== 'object' || data === null) return undefined;
  if (data.type !== undefined && data.type !== 'mcp_approval_request') return undefined;
  // Without a type, only a server label (with an item id, in the realtime shape) marks a request.
  if (data.type === undefined && !text(data.server_label) && !(text(data.serverLabel) && text(data.itemId))) return undefined;
  const identity: HostedMcpApprovalIdentity = {};
  const requestId = text(data.id) ?? text(data.itemId) ?? text(raw.id);
  if (requestId) identity.requestId = requestId;
  const serverLabel = text(data.server_label) ?? text(data.serverLabel);
  if (serverLabel) identity.serverLabel = serverLabel;
  const toolName = text(data.name) ?? (text(raw.name) !== 'mcp_approval_request' ? text(raw.name) : undefined);
  if (toolName) identity.toolName = toolName;
  return identity;
}

/**
 * The key a server's decisions for one remote tool are kept under: a sticky "always approve" for
 * `lookup` on server A says nothing about `lookup` on server B. `undefined` when the server or the
 * tool is unknown (no decision can be scoped then).
 */
export function hostedMcpApprovalKey(identity: HostedMcpApprovalIdentity): string | undefined {
  return identity.serverLabel && identity.toolName ? JSON.stringify(['hosted_mcp', identity.serverLabel, identity.toolName]) : undefined;
}

/** Whether a stored key is one `hostedMcpApprovalKey` makes (what a restored state may hold). */
export function isHostedMcpApprovalKey(key: string): boolean {
  try {
    const parts: unknown = JSON.parse(key);
    return Array.isArray(parts) && parts.length === 3 && parts[0] === 'hosted_mcp' && text(parts[1]) !== undefined && text(parts[2]) !== undefined;
  } catch {
    return false;
  }
}
