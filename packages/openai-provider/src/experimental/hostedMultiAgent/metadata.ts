/** Which hosted agent produced an item (or called a local tool), as the service labels it. */
export type HostedAgentMetadata = Readonly<{
  /** The agent's path, `/root` for the coordinating agent, `/root/<name>` for a subagent. */
  agentName: string;
  /** The item's phase when the service gives one (for example `final_answer`). */
  phase?: string;
}>;

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

/** The object that carries the `agent` label: a tool's `details` lead to their `toolCall`, a protocol item to its `providerData`. */
function labelledItem(value: unknown): Fields | undefined {
  let current: unknown = value;
  while (isFields(current) && isFields(current.toolCall)) current = current.toolCall;
  if (!isFields(current)) return undefined;
  if (isFields(current.providerData) && isFields(current.providerData.agent)) return current.providerData;
  return current;
}

/**
 * The hosted agent attribution of a value: a raw Responses item (`{ agent: { agent_name }, phase }`),
 * a protocol item (the same fields in its `providerData`), or the `details` a local tool receives
 * (its `toolCall`). Undefined when the value carries no agent name. Reading it changes nothing
 * about how the tool call is routed.
 */
export function getHostedAgentMetadata(value: unknown): HostedAgentMetadata | undefined {
  const item = labelledItem(value);
  const agent = item?.agent;
  if (!isFields(agent) || typeof agent.agent_name !== 'string' || agent.agent_name === '') return undefined;
  return typeof item?.phase === 'string' ? { agentName: agent.agent_name, phase: item.phase } : { agentName: agent.agent_name };
}
