import { UserError, type HostedToolCallItem } from '@baton/types';
import { isRecord, providerFields, type Json } from '../json.js';
import { callerField, callerFromApi } from './toolItems.js';

/**
 * Hosted tools on the Responses API, as the reference converts them: the tool definitions sent
 * (with the `include` entries some of them ask for), and the calls the API ran, which come back as
 * output items and are kept in history as `hosted_tool_call` items (the API's fields in
 * `providerData`), then sent back in their API shape.
 */

/** The API's tool definition for a hosted tool, and what it adds to `include`. */
export function hostedToolDefinition(name: string, data: Json): { tool: Json; include?: string } {
  switch (data.type) {
    case 'web_search': {
      const tool: Json = { type: 'web_search', user_location: data.user_location, filters: data.filters, search_context_size: data.search_context_size };
      for (const key of ['external_web_access', 'search_content_types', 'image_settings']) if (data[key] !== undefined) tool[key] = data[key];
      const wantsImages = Array.isArray(data.search_content_types) && data.search_content_types.includes('image');
      return wantsImages ? { tool, include: 'web_search_call.results' } : { tool };
    }
    case 'file_search': {
      const ids = data.vector_store_ids ?? (typeof data.vector_store_id === 'string' ? [data.vector_store_id] : data.vector_store_id);
      const tool = { type: 'file_search', vector_store_ids: ids, max_num_results: data.max_num_results, ranking_options: data.ranking_options, filters: data.filters };
      return data.include_search_results ? { tool, include: 'file_search_call.results' } : { tool };
    }
    case 'code_interpreter': {
      const tool = { type: 'code_interpreter', container: data.container, allowed_callers: data.allowed_callers };
      return data.include_outputs ? { tool, include: 'code_interpreter_call.outputs' } : { tool };
    }
    case 'image_generation': {
      const keys = ['action', 'background', 'input_fidelity', 'input_image_mask', 'model', 'moderation', 'output_compression', 'output_format', 'partial_images', 'quality', 'size'];
      return { tool: { type: 'image_generation', ...Object.fromEntries(keys.map((key) => [key, data[key]])) } };
    }
    case 'tool_search': {
      // Client-executed search needs an explicit schema, even for the built-in loader.
      const client = data.execution === 'client';
      const tool: Json = {
        type: 'tool_search',
        execution: data.execution,
        description: data.description ?? (client ? 'Load tools by namespace or tool name before calling them.' : undefined),
        parameters:
          data.parameters ??
          (client
            ? { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'], additionalProperties: false }
            : undefined),
      };
      return { tool };
    }
    case 'programmatic_tool_calling':
      return { tool: { type: 'programmatic_tool_calling' } };
    case 'mcp': {
      // `on_approval` is a local function: never sent.
      const keys = ['server_label', 'server_url', 'connector_id', 'authorization', 'allowed_tools', 'headers', 'require_approval', 'allowed_callers', 'server_description'];
      const tool: Json = { type: 'mcp', ...Object.fromEntries(keys.map((key) => [key, data[key]])) };
      if (data.defer_loading === true) tool.defer_loading = true;
      return { tool };
    }
    default:
      if (typeof data.type !== 'string') throw new UserError(`Hosted tool "${name}" has no \`providerData.type\` naming the Responses API tool.`);
      return { tool: { ...data } };
  }
}

const RAN_BY_API = new Set(['web_search_call', 'file_search_call', 'code_interpreter_call', 'image_generation_call']);
const MCP_ITEMS = new Set(['mcp_list_tools', 'mcp_approval_request', 'mcp_call']);

/** A Responses API output item the API ran itself, as a `hosted_tool_call`; undefined for other items. */
export function hostedCallFromOutput(item: Json): HostedToolCallItem | undefined {
  const type = item.type;
  if (typeof type !== 'string') return undefined;
  const id = typeof item.id === 'string' ? item.id : undefined;
  // A valid caller (Programmatic Tool Calling) moves onto the item.
  const { caller } = callerFromApi(item.caller);
  if (caller !== undefined) {
    const { caller: _caller, ...withoutCaller } = item;
    item = withoutCaller;
  }
  if (RAN_BY_API.has(type)) {
    const { status, result, ...providerData } = item;
    const call: HostedToolCallItem = { type: 'hosted_tool_call', name: type, providerData };
    if (caller !== undefined) call.caller = caller;
    if (id !== undefined) call.id = id;
    if (typeof status === 'string') call.status = status;
    // An image generation's result (base64) is the call's output, not kept twice.
    if (result !== undefined && result !== null) call.output = String(result);
    else if ('result' in item) providerData.result = result;
    return call;
  }
  if (MCP_ITEMS.has(type)) {
    const { output, ...rest } = item;
    const providerData = type === 'mcp_call' ? rest : { ...item };
    const call: HostedToolCallItem = { type: 'hosted_tool_call', name: type, status: 'completed', providerData };
    if (id !== undefined) call.id = id;
    if (caller !== undefined) call.caller = caller;
    if (type === 'mcp_call' && typeof output === 'string') call.output = output;
    return call;
  }
  return undefined;
}

/** A `hosted_tool_call` from history in the API's input shape. */
export function hostedCallToInput(item: HostedToolCallItem): Json {
  const data = isRecord(item.providerData) ? item.providerData : {};
  const kind = typeof data.type === 'string' ? data.type : item.name;
  const fields = providerFields(data, []);
  switch (kind) {
    case 'web_search_call':
    case 'web_search':
      if (data.action !== undefined && !(isRecord(data.action) && typeof data.action.type === 'string')) throw new UserError('web_search_call invalid action');
      return { ...fields, type: 'web_search_call', id: item.id, status: item.status ?? 'failed' };
    case 'file_search_call':
    case 'file_search':
      return { ...fields, type: 'file_search_call', id: item.id, status: item.status ?? 'failed', queries: data.queries ?? [], results: data.results };
    case 'code_interpreter_call':
    case 'code_interpreter':
      return {
        ...fields,
        type: 'code_interpreter_call',
        id: item.id,
        code: data.code ?? '',
        outputs: data.outputs ?? data.results ?? [],
        status: item.status ?? 'failed',
        container_id: data.container_id,
        ...callerField(item.caller),
      };
    case 'image_generation_call':
    case 'image_generation':
      return { ...fields, type: 'image_generation_call', id: item.id, result: data.result ?? null, status: item.status ?? 'failed' };
    default:
      break;
  }
  switch (item.name === 'mcp_approval_request' || item.name === 'mcp_approval_response' || item.name === 'mcp_list_tools' || item.name === 'mcp_call' ? item.name : kind) {
    case 'mcp_list_tools':
      return { ...fields, type: 'mcp_list_tools', id: item.id, tools: fields.tools, server_label: data.server_label, error: data.error, ...callerField(item.caller) };
    case 'mcp_approval_request':
      return { ...fields, type: 'mcp_approval_request', id: data.id ?? item.id, name: data.name, arguments: data.arguments, server_label: data.server_label, ...callerField(item.caller) };
    case 'mcp_approval_response':
      return { ...fields, type: 'mcp_approval_response', id: data.id, approve: data.approve, approval_request_id: data.approval_request_id, reason: data.reason, ...callerField(item.caller) };
    case 'mcp_call':
      return { ...fields, type: 'mcp_call', id: data.id ?? item.id, name: data.name, arguments: data.arguments, server_label: data.server_label, error: data.error, ...callerField(item.caller) };
    default:
      throw new UserError(`Unsupported built-in tool call type: ${JSON.stringify(item)}`);
  }
}
