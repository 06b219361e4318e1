import { UserError, type SerializedHandoff, type SerializedTool, type ShellToolEnvironment } from '@baton/types';
import { isRecord, type Json } from '../json.js';
import { hostedToolDefinition } from './hostedCalls.js';

/**
 * The `tools` (and `include`) of a Responses request, as the reference builds them: function
 * tools sharing a `namespace` are grouped into one `namespace` tool (at the place of the first),
 * deferred tools (`deferLoading`) need `toolSearchTool()` in the same request, the computer tool
 * takes its preview shape (`computer_use_preview` with the display) unless the request targets a
 * GA computer model, shell tools carry their environment, and handoffs come last as functions.
 */
export function responsesTools(
  tools: readonly SerializedTool[],
  handoffs: readonly SerializedHandoff[],
  options: { usePreviewComputerTool: boolean },
): { tools: Json[]; include: string[] } {
  const out: Json[] = [];
  const include: string[] = [];
  const namespaces = new Map<string, { index: number; description: string; names: Set<string>; tools: Json[] }>();
  let hasDeferred = false;
  let hasToolSearch = false;
  const addInclude = (entry: string | undefined) => {
    if (entry !== undefined && !include.includes(entry)) include.push(entry);
  };
  for (const tool of tools) {
    if (tool.type === 'function') {
      hasDeferred ||= tool.deferLoading === true;
      const namespace = typeof tool.namespace === 'string' ? tool.namespace.trim() : '';
      if (namespace !== '') {
        const description = typeof tool.namespaceDescription === 'string' ? tool.namespaceDescription.trim() : '';
        if (description === '') throw new UserError(`All tools in namespace "${namespace}" must provide a non-empty description.`);
        let group = namespaces.get(namespace);
        if (group === undefined) {
          group = { index: out.length, description, names: new Set(), tools: [] };
          namespaces.set(namespace, group);
          out.push({});
        } else if (group.description !== description) {
          throw new UserError(`All tools in namespace "${namespace}" must share the same description.`);
        }
        if (group.names.has(String(tool.name))) throw new UserError(`Namespace "${namespace}" cannot contain duplicate function tool name "${String(tool.name)}".`);
        group.names.add(String(tool.name));
        group.tools.push(functionTool(tool as Json));
        continue;
      }
    }
    if (tool.type === 'hosted_tool' && isRecord(tool.providerData)) {
      if (tool.providerData.type === 'tool_search') hasToolSearch = true;
      if (tool.providerData.type === 'mcp' && tool.providerData.defer_loading === true) hasDeferred = true;
    }
    const converted = responsesTool(tool, options);
    out.push(converted.tool);
    addInclude(converted.include);
  }
  if (hasDeferred && !hasToolSearch) {
    throw new UserError('Deferred function tools and hosted MCP tools with deferLoading: true require toolSearchTool() in the same request.');
  }
  for (const [name, group] of namespaces) out[group.index] = { type: 'namespace', name, description: group.description, tools: group.tools };
  return { tools: [...out, ...handoffs.map(handoffTool)], include };
}

function responsesTool(tool: SerializedTool, options: { usePreviewComputerTool: boolean }): { tool: Json; include?: string } {
  const fields = tool as Json;
  switch (tool.type) {
    case 'function':
      return { tool: functionTool(fields) };
    case 'computer':
      return { tool: computerTool(fields, options.usePreviewComputerTool) };
    case 'shell':
      return { tool: { type: 'shell', environment: shellEnvironment(fields.environment as ShellToolEnvironment | undefined), ...allowedCallers(fields) } };
    case 'apply_patch':
      return { tool: { type: 'apply_patch', ...allowedCallers(fields) } };
    case 'hosted_tool':
      if (isRecord(fields.providerData)) return hostedToolDefinition(tool.name, fields.providerData);
      break;
    default:
      break;
  }
  throw new UserError(`The OpenAI Responses model does not support tools of type "${tool.type}" (tool "${tool.name}").`);
}

function functionTool(tool: Json): Json {
  const out: Json = {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: tool.strict,
    ...allowedCallers(tool),
    ...(tool.outputSchema ? { output_schema: tool.outputSchema } : {}),
  };
  if (tool.deferLoading === true) out.defer_loading = true;
  return out;
}

function allowedCallers(tool: Json): Json {
  return Array.isArray(tool.allowedCallers) ? { allowed_callers: [...tool.allowedCallers] } : {};
}

function computerTool(tool: Json, preview: boolean): Json {
  if (!preview) return { type: 'computer' };
  const dimensions = tool.dimensions;
  const hasDisplay =
    typeof tool.environment === 'string' && Array.isArray(dimensions) && dimensions.length === 2 && dimensions.every((value) => typeof value === 'number');
  if (!hasDisplay) {
    throw new UserError(
      'Preview computer tools require environment and dimensions. Provide them on your Computer implementation or target a GA computer model such as gpt-5.4.',
    );
  }
  return { type: 'computer_use_preview', environment: tool.environment, display_width: dimensions[0], display_height: dimensions[1] };
}

/** Whether the computer tool goes in its preview shape: for a preview model, or when no model is sent and the choice does not ask for the GA tool. */
export function usesPreviewComputerTool(model: string | undefined, toolChoice: string | undefined): boolean {
  if (typeof model === 'string') return model.startsWith('computer-use-preview');
  return toolChoice !== 'computer' && toolChoice !== 'computer_use';
}

function shellEnvironment(environment: ShellToolEnvironment | undefined): Json {
  if (environment === undefined) return { type: 'local' };
  switch (environment.type) {
    case 'local':
      return {
        type: 'local',
        skills: environment.skills?.map((skill) => {
          if (typeof skill.name !== 'string' || typeof skill.description !== 'string' || typeof skill.path !== 'string') {
            throw new UserError('Local shell skill requires name, description, and path.');
          }
          return { name: skill.name, description: skill.description, path: skill.path };
        }),
      };
    case 'container_auto':
      return {
        type: 'container_auto',
        file_ids: environment.fileIds,
        memory_limit: environment.memoryLimit,
        network_policy: networkPolicy(environment.networkPolicy),
        skills: environment.skills?.map(containerSkill),
      };
    case 'container_reference':
      if (typeof environment.containerId !== 'string' || environment.containerId === '') {
        throw new UserError('shell container_reference environment requires containerId.');
      }
      return { type: 'container_reference', container_id: environment.containerId };
    default:
      throw new UserError(`Unsupported shell environment type: ${String((environment as { type?: unknown }).type)}`);
  }
}

function containerSkill(skill: Extract<ShellToolEnvironment, { type: 'container_auto' }>['skills'] extends (infer S)[] | undefined ? S : never): Json {
  if (skill.type === 'skill_reference') {
    if (typeof skill.skillId !== 'string' || skill.skillId === '') throw new UserError('shell skill_reference requires skillId.');
    return { type: 'skill_reference', skill_id: skill.skillId, version: skill.version };
  }
  if (skill.type === 'inline') {
    if (!skill.source) throw new UserError('shell inline skill requires a source.');
    if (skill.source.mediaType !== 'application/zip') throw new UserError('shell inline skill source.mediaType must be application/zip.');
    if (typeof skill.source.data !== 'string' || skill.source.data === '') throw new UserError('shell inline skill source.data is required.');
    if (typeof skill.name !== 'string' || skill.name === '') throw new UserError('shell inline skill requires name.');
    if (typeof skill.description !== 'string' || skill.description === '') throw new UserError('shell inline skill requires description.');
    return {
      type: 'inline',
      name: skill.name,
      description: skill.description,
      source: { type: 'base64', media_type: 'application/zip', data: skill.source.data },
    };
  }
  throw new UserError(`Unsupported shell skill type: ${String((skill as { type?: unknown }).type)}`);
}

function networkPolicy(policy: Extract<ShellToolEnvironment, { type: 'container_auto' }>['networkPolicy']): Json | undefined {
  if (policy === undefined) return undefined;
  if (policy.type === 'disabled') return { type: 'disabled' };
  if (policy.type === 'allowlist') {
    if (!Array.isArray(policy.allowedDomains)) throw new UserError('shell allowlist networkPolicy requires allowedDomains.');
    return {
      type: 'allowlist',
      allowed_domains: policy.allowedDomains.filter((domain) => typeof domain === 'string' && domain !== ''),
      domain_secrets: policy.domainSecrets?.map((secret) => ({ domain: secret.domain, name: secret.name, value: secret.value })),
    };
  }
  throw new UserError(`Unsupported shell networkPolicy type: ${String((policy as { type?: unknown }).type)}`);
}

/** A handoff is offered to the model as a function tool. */
export function handoffTool(handoff: SerializedHandoff): Json {
  return {
    type: 'function',
    name: handoff.toolName,
    description: handoff.toolDescription,
    parameters: handoff.inputJsonSchema,
    strict: handoff.strictJsonSchema,
  };
}
