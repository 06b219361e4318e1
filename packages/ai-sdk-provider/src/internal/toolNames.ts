import { UserError, type ModelRequest, type SerializedHandoff, type SerializedTool } from '@baton/types';
import { isRecord } from './json.js';
import { TOOL_SEARCH_NAME, isHostedToolSearch } from './toolSearchOutput.js';

/** A request's tool or handoff, as the AI SDK will see it: one flat name per entry. */
export type RequestedTool = { kind: 'tool'; tool: SerializedTool } | { kind: 'handoff'; handoff: SerializedHandoff };

export interface ResolvedTools {
  readonly tools: SerializedTool[];
  readonly handoffs: SerializedHandoff[];
  /** Every exposed name to what it stands for (tool calls are matched back through it). */
  readonly byName: ReadonlyMap<string, RequestedTool>;
}

/** A function tool's name on the wire: `namespace.name` for a namespaced tool, else its name. */
export function flatToolName(tool: { name: string; namespace?: unknown }): string {
  return typeof tool.namespace === 'string' && tool.namespace !== '' ? `${tool.namespace}.${tool.name}` : tool.name;
}

/**
 * The request's tools and handoffs with their flat names checked: the AI SDK knows a tool by one
 * name only, so two entries that flatten to the same name cannot both be routed. A function tool
 * and a provider tool, two provider tools, a namespaced or deferred function tool and anything
 * else, or any two entries under `toolNameCollisionPolicy: 'error'`: a `UserError` before the
 * model is called. Two plain function tools / handoffs under the default policy: a warning, and
 * the later one wins (the one the run loop dispatches to). A function tool whose namespace equals
 * its name is the wire shape of a deferred top-level tool: a `UserError`. Names are left out of
 * messages unless tool data may be logged (`OPENAI_AGENTS_DONT_LOG_TOOL_DATA=false`).
 */
export function resolveTools(request: ModelRequest, warn: (message: string) => void = defaultWarn): ResolvedTools {
  const tools = request.tools ?? [];
  const handoffs = request.handoffs ?? [];
  const policy = (request as { _internal?: { toolNameCollisionPolicy?: unknown } })._internal?.toolNameCollisionPolicy ?? 'warn';
  const redact = !toolDataLoggable();
  const byName = new Map<string, RequestedTool>();
  const routable = new Map<string, { entry: RequestedTool; index: number }>();
  const dropped = { tool: new Set<number>(), handoff: new Set<number>() };
  const fail = (redacted: string, named: string) => new UserError(redact ? redacted : named);

  const add = (name: string, entry: RequestedTool, index: number) => {
    const existing = byName.get(name);
    if (name === TOOL_SEARCH_NAME && existing !== undefined && isToolSearch(existing) !== isToolSearch(entry)) {
      throw new UserError(
        'AiSdkModel cannot disambiguate a hosted tool_search helper from a custom tool or handoff that is also named "tool_search": the model\'s tool_search calls could mean either. Rename the custom tool or handoff, or use a Responses API model.',
      );
    }
    if (existing !== undefined && isRoutable(existing) !== isRoutable(entry)) {
      throw fail(
        `AiSdkModel cannot disambiguate tools with the same flattened name. ${RENAME}`,
        `AiSdkModel cannot disambiguate the flattened tool name '${name}' (a function tool or handoff and a provider tool). ${RENAME}`,
      );
    }
    if (existing !== undefined && !isRoutable(existing) && !isRoutable(entry)) {
      throw fail(
        'AiSdkModel cannot disambiguate provider tools with the same flattened name. Assign unique provider tool names.',
        `AiSdkModel cannot disambiguate the flattened provider tool name '${name}'. Assign unique provider tool names.`,
      );
    }
    const previous = routable.get(name);
    if (previous !== undefined && isRoutable(entry)) {
      if (isStructured(previous.entry) || isStructured(entry) || policy === 'error') {
        throw fail(
          `AiSdkModel cannot disambiguate function tools and handoffs with the same flattened name. ${RENAME}`,
          `AiSdkModel cannot disambiguate the flattened tool name '${name}'. ${RENAME}`,
        );
      }
      warn(
        redact
          ? `AI SDK tool name collision detected. ${RENAME} Only the current dispatch winner will be exposed.`
          : `AI SDK tool name collision detected for '${name}'. ${RENAME} Only the current dispatch winner will be exposed.`,
      );
      dropped[previous.entry.kind].add(previous.index);
    }
    byName.set(name, entry);
    if (isRoutable(entry)) routable.set(name, { entry, index });
  };

  tools.forEach((tool, index) => {
    const namespace = (tool as { namespace?: unknown }).namespace;
    if (tool.type === 'function' && typeof namespace === 'string' && namespace === tool.name) {
      throw fail(
        `AiSdkModel cannot route a function tool whose namespace matches its name because that wire shape is reserved for deferred top-level tools. ${DEFERRED}`,
        `AiSdkModel cannot route the function tool '${tool.name}' because its namespace matches its name and that wire shape is reserved for deferred top-level tools. ${DEFERRED}`,
      );
    }
    add(tool.type === 'function' ? flatToolName(tool as { name: string; namespace?: unknown }) : tool.name, { kind: 'tool', tool }, index);
  });
  handoffs.forEach((handoff, index) => add(handoff.toolName, { kind: 'handoff', handoff }, index));
  return {
    tools: tools.filter((_, index) => !dropped.tool.has(index)),
    handoffs: handoffs.filter((_, index) => !dropped.handoff.has(index)),
    byName,
  };
}

/** Whether a requested tool's input is an object (its schema says so): an empty input then means `{}`. */
export function expectsObjectInput(entry: RequestedTool | undefined): boolean {
  if (entry === undefined) return false;
  const schema = entry.kind === 'handoff' ? entry.handoff.inputJsonSchema : entry.tool.type === 'function' ? (entry.tool as { parameters?: unknown }).parameters : undefined;
  if (!isRecord(schema)) return false;
  const type = schema.type;
  if (Array.isArray(type) ? type.includes('object') : type === 'object') return true;
  return schema.properties !== undefined || schema.additionalProperties !== undefined;
}

const RENAME = 'Assign unique tool names or toolNameOverride values, or use distinct namespaces.';
const DEFERRED = 'Rename the namespace or tool, or use a Responses model for deferred top-level tools.';

function isToolSearch(entry: RequestedTool): boolean {
  return entry.kind === 'tool' && isHostedToolSearch(entry.tool);
}

function isRoutable(entry: RequestedTool): boolean {
  return entry.kind === 'handoff' || entry.tool.type === 'function';
}

/** A function tool with a namespace or deferred loading: its identity is more than its name, so a collision is never resolved by dropping one. */
function isStructured(entry: RequestedTool): boolean {
  if (entry.kind !== 'tool' || entry.tool.type !== 'function') return false;
  const tool = entry.tool as { namespace?: unknown; deferLoading?: unknown };
  return (typeof tool.namespace === 'string' && tool.namespace !== '') || tool.deferLoading === true;
}

/**
 * Tool names may be logged only when `OPENAI_AGENTS_DONT_LOG_TOOL_DATA` is `false` / `0` (and, for
 * names the model sent, `OPENAI_AGENTS_DONT_LOG_MODEL_DATA` too); the SDK's logging default keeps them out.
 */
export function toolDataLoggable(options: { andModelData?: boolean } = {}): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const allows = (value: string | undefined) => value === 'false' || value === '0';
  return allows(env?.OPENAI_AGENTS_DONT_LOG_TOOL_DATA) && (options.andModelData !== true || allows(env?.OPENAI_AGENTS_DONT_LOG_MODEL_DATA));
}

function defaultWarn(message: string): void {
  console.warn(message);
}
