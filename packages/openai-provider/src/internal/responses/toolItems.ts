import {
  UserError,
  type AgentInputItem,
  type AgentOutputItem,
  type ApplyPatchOperation,
  type CompactionItem,
  type ComputerAction,
  type ShellAction,
  type ShellCallOutputContent,
  type ToolCaller,
} from '@baton/types';
import { isRecord, providerFields, type Json } from '../json.js';
import { CompactionItemValidationError } from '@baton/types/internal';

/**
 * The Responses items of the tools the SDK runs or the API runs on its behalf (shell, apply
 * patch, computer use, tool search, Programmatic Tool Calling) and compaction items, both ways,
 * as the reference converts them: camelCase protocol fields to the API's snake_case and back, the
 * API's other fields kept in `providerData`.
 */

type ToolItem = Extract<
  AgentInputItem,
  {
    type:
      | 'tool_search_call'
      | 'tool_search_output'
      | 'program'
      | 'program_output'
      | 'computer_call'
      | 'computer_call_result'
      | 'shell_call'
      | 'shell_call_output'
      | 'apply_patch_call'
      | 'apply_patch_call_output'
      | 'compaction';
  }
>;

const TOOL_ITEM_TYPES = new Set<string>([
  'tool_search_call',
  'tool_search_output',
  'program',
  'program_output',
  'computer_call',
  'computer_call_result',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'compaction',
]);

export function isToolItem(item: AgentInputItem): item is ToolItem {
  return typeof item.type === 'string' && TOOL_ITEM_TYPES.has(item.type);
}

/** A tool item from history in the API's input shape. */
export function toolItemToInput(item: ToolItem): Json {
  switch (item.type) {
    case 'tool_search_call':
    case 'tool_search_output': {
      const status = item.status === 'in_progress' || item.status === 'completed' || item.status === 'incomplete' ? item.status : undefined;
      const callId = toolSearchCallId(item);
      const execution = toolSearchExecution(item);
      const body: Json =
        item.type === 'tool_search_call' ? { arguments: item.arguments } : { tools: item.tools.map((tool) => toolSearchToolToApi(tool)) };
      return {
        type: item.type,
        id: item.id,
        ...(status !== undefined ? { status } : {}),
        ...body,
        ...(callId !== undefined ? { call_id: callId } : {}),
        ...(execution !== undefined ? { execution } : {}),
        ...providerFields(item.providerData, ['type', 'id', 'status', 'arguments', 'tools', 'call_id', 'execution']),
      };
    }
    case 'program':
      return {
        type: 'program',
        id: item.id,
        call_id: item.callId,
        code: item.code,
        fingerprint: item.fingerprint,
        ...providerFields(item.providerData, ['type', 'id', 'call_id', 'code', 'fingerprint']),
      };
    case 'program_output':
      return {
        type: 'program_output',
        id: item.id,
        call_id: item.callId,
        result: item.output,
        status: item.status,
        ...providerFields(item.providerData, ['type', 'id', 'call_id', 'output', 'result', 'status']),
      };
    case 'computer_call': {
      const pending = dataField(item.providerData, 'pending_safety_checks', 'pendingSafetyChecks');
      const actions = Array.isArray(item.actions) ? item.actions : [];
      const action = actions.length > 0 ? { action: item.action ?? actions[0], actions } : item.action ? { action: item.action } : {};
      return {
        type: 'computer_call',
        call_id: item.callId,
        id: item.id,
        status: item.status,
        ...(Array.isArray(pending) && pending.length > 0 ? { pending_safety_checks: pending } : {}),
        ...action,
        ...providerFields(item.providerData, ['type', 'call_id', 'id', 'action', 'actions', 'status', 'pending_safety_checks']),
      };
    }
    case 'computer_call_result': {
      const acknowledged = dataField(item.providerData, 'acknowledged_safety_checks', 'acknowledgedSafetyChecks');
      return {
        type: 'computer_call_output',
        id: item.id,
        call_id: item.callId,
        output: { type: 'computer_screenshot', image_url: item.output.data },
        status: isRecord(item.providerData) ? item.providerData.status : undefined,
        ...(Array.isArray(acknowledged) && acknowledged.length > 0 ? { acknowledged_safety_checks: acknowledged } : {}),
        ...providerFields(item.providerData, ['type', 'id', 'call_id', 'output', 'status', 'acknowledged_safety_checks']),
      };
    }
    case 'shell_call': {
      const environment = providerFields(item.providerData, []).environment;
      return {
        type: 'shell_call',
        id: item.id,
        call_id: item.callId,
        status: item.status ?? 'in_progress',
        action: {
          commands: item.action.commands,
          timeout_ms: typeof item.action.timeoutMs === 'number' ? item.action.timeoutMs : null,
          max_output_length: typeof item.action.maxOutputLength === 'number' ? item.action.maxOutputLength : null,
        },
        ...callerField(item.caller),
        ...(isRecord(environment) ? { environment } : {}),
      };
    }
    case 'shell_call_output':
      return {
        type: 'shell_call_output',
        call_id: item.callId,
        output: item.output.map((entry) => ({
          stdout: typeof entry?.stdout === 'string' ? entry.stdout : '',
          stderr: typeof entry?.stderr === 'string' ? entry.stderr : '',
          outcome: entry?.outcome?.type === 'timeout' ? { type: 'timeout' } : { type: 'exit', exit_code: (entry?.outcome?.type === 'exit' ? entry.outcome.exitCode : null) ?? 0 },
        })),
        id: item.id,
        status: item.status,
        ...callerField(item.caller),
        ...(typeof item.maxOutputLength === 'number' ? { max_output_length: item.maxOutputLength } : {}),
      };
    case 'apply_patch_call':
      if (!item.operation) throw new UserError('apply_patch_call missing operation');
      return {
        type: 'apply_patch_call',
        id: item.id,
        call_id: item.callId,
        status: item.status ?? 'in_progress',
        operation: patchOperationToApi(item.operation),
        ...callerField(item.caller),
      };
    case 'apply_patch_call_output':
      return {
        type: 'apply_patch_call_output',
        id: item.id,
        call_id: item.callId,
        status: item.status ?? 'completed',
        output: item.output,
        ...callerField(item.caller),
      };
    case 'compaction': {
      const encrypted = item.encrypted_content ?? (item as { encryptedContent?: unknown }).encryptedContent;
      const compaction = { type: 'compaction', id: item.id, encrypted_content: encrypted };
      checkCompaction(compaction);
      return compaction;
    }
  }
}

/** A Responses output item of these tools as a protocol item; undefined for other items. */
export function toolItemFromOutput(item: Json): AgentOutputItem | undefined {
  const { type } = item;
  switch (type) {
    case 'tool_search_call': {
      const { id, type: _type, status, arguments: args, ...providerData } = item;
      return { type: 'tool_search_call', id: id as string, status: status as string, arguments: args, providerData };
    }
    case 'tool_search_output': {
      const { id, type: _type, status, tools, ...providerData } = item;
      return {
        type: 'tool_search_output',
        id: id as string,
        status: status as string,
        tools: Array.isArray(tools) ? tools.map((tool) => toolSearchToolFromApi(tool)) : [],
        providerData,
      };
    }
    case 'program': {
      const { id, call_id, code, fingerprint, type: _type, ...providerData } = item;
      return { type: 'program', id: id as string, callId: call_id as string, code: code as string, fingerprint: fingerprint as string, providerData };
    }
    case 'program_output': {
      const { id, call_id, result, status, type: _type, ...providerData } = item;
      return { type: 'program_output', id: id as string, callId: call_id as string, output: result as string, status: status as 'completed', providerData };
    }
    case 'computer_call': {
      const { call_id, status, action, actions, ...providerData } = item;
      const batch = Array.isArray(actions) && actions.length > 0 ? (actions as ComputerAction[]) : undefined;
      if (batch === undefined && !action) throw new UserError(`Unsupported computer call item without an action or actions: ${JSON.stringify(item)}`);
      return {
        type: 'computer_call',
        id: item.id as string,
        callId: call_id as string,
        status: status as 'completed',
        action: (action ?? batch?.[0]) as ComputerAction,
        ...(batch ? { actions: batch } : {}),
        providerData,
      };
    }
    case 'shell_call': {
      const { call_id, status, action, caller, ...providerData } = item;
      const raw = isRecord(action) ? action : {};
      const shellAction: ShellAction = { commands: Array.isArray(raw.commands) ? (raw.commands as string[]) : [] };
      if (typeof raw.timeout_ms === 'number') shellAction.timeoutMs = raw.timeout_ms;
      if (typeof raw.max_output_length === 'number') shellAction.maxOutputLength = raw.max_output_length;
      return {
        type: 'shell_call',
        id: item.id as string,
        callId: call_id as string,
        status: (status ?? 'in_progress') as 'in_progress',
        action: shellAction,
        ...callerFromApi(caller),
        providerData,
      };
    }
    case 'shell_call_output': {
      const { call_id, output, max_output_length, status, caller, ...providerData } = item;
      const entries: ShellCallOutputContent[] = Array.isArray(output)
        ? output.map((entry) => {
            const raw = isRecord(entry) ? entry : {};
            const outcome = isRecord(raw.outcome) ? raw.outcome : {};
            return {
              stdout: typeof raw.stdout === 'string' ? raw.stdout : '',
              stderr: typeof raw.stderr === 'string' ? raw.stderr : '',
              outcome: outcome.type === 'timeout' ? { type: 'timeout' } : { type: 'exit', exitCode: typeof outcome.exit_code === 'number' ? outcome.exit_code : null },
            };
          })
        : [];
      return {
        type: 'shell_call_output',
        id: item.id as string,
        callId: call_id as string,
        output: entries,
        ...(status ? { status: status as 'completed' } : {}),
        ...callerFromApi(caller),
        ...(typeof max_output_length === 'number' ? { maxOutputLength: max_output_length } : {}),
        providerData,
      };
    }
    case 'apply_patch_call': {
      const { call_id, status, operation, caller, ...providerData } = item;
      if (!isRecord(operation)) throw new UserError('apply_patch_call missing operation');
      return {
        type: 'apply_patch_call',
        id: item.id as string,
        callId: call_id as string,
        status: (status ?? 'in_progress') as 'in_progress',
        operation: patchOperationFromApi(operation),
        ...callerFromApi(caller),
        providerData,
      };
    }
    case 'apply_patch_call_output': {
      const { call_id, status, output, caller, ...providerData } = item;
      return {
        type: 'apply_patch_call_output',
        id: item.id as string,
        callId: call_id as string,
        status: status as 'completed',
        output: typeof output === 'string' ? output : undefined,
        ...callerFromApi(caller),
        providerData,
      } as AgentOutputItem;
    }
    case 'compaction': {
      const { encrypted_content, created_by, ...providerData } = item;
      const compaction = { type: 'compaction', id: item.id as string, encrypted_content, created_by, providerData } as CompactionItem;
      checkCompaction(compaction);
      return compaction;
    }
    default:
      return undefined;
  }
}

/** A compaction item needs its ciphertext (and, when it has one, a string id). */
export function checkCompaction(item: Json | CompactionItem): void {
  const fields = item as Json;
  const idOk = fields.id === undefined || typeof fields.id === 'string';
  const createdByOk = fields.created_by === undefined || typeof fields.created_by === 'string';
  if (typeof fields.encrypted_content !== 'string' || !idOk || !createdByOk) throw new CompactionItemValidationError('Compaction item missing encrypted_content');
}

/** The caller of a tool call in the API's shape. */
export function callerField(caller: ToolCaller | undefined): Json {
  if (!caller) return {};
  return { caller: caller.type === 'direct' ? { type: 'direct' } : { type: 'program', caller_id: caller.callerId } };
}

/** The caller of a tool call from the API's shape (nothing when it is not one). */
export function callerFromApi(caller: unknown): { caller?: ToolCaller } {
  if (!isRecord(caller)) return {};
  if (caller.type === 'direct') return { caller: { type: 'direct' } };
  if (caller.type === 'program' && typeof caller.caller_id === 'string') return { caller: { type: 'program', callerId: caller.caller_id } };
  return {};
}

function dataField(providerData: unknown, ...keys: string[]): unknown {
  if (!isRecord(providerData)) return undefined;
  for (const key of keys) if (providerData[key] !== undefined) return providerData[key];
  return undefined;
}

function toolSearchData(item: { providerData?: unknown }): Json | undefined {
  return isRecord(item.providerData) ? item.providerData : undefined;
}

function toolSearchCallId(item: { call_id?: string | null; callId?: string | null; providerData?: unknown }): string | undefined {
  const data = toolSearchData(item);
  for (const candidate of [data?.call_id, data?.callId, item.call_id, item.callId]) if (typeof candidate === 'string' && candidate !== '') return candidate;
  return undefined;
}

function toolSearchExecution(item: { execution?: string; providerData?: unknown }): 'client' | 'server' | undefined {
  if (item.execution === 'client' || item.execution === 'server') return item.execution;
  const execution = toolSearchData(item)?.execution;
  return execution === 'client' || execution === 'server' ? execution : undefined;
}

/** A tool a search returned, protocol (camelCase) to API (snake_case). */
function toolSearchToolToApi(tool: unknown): unknown {
  if (!isRecord(tool)) return tool;
  if (tool.type === 'tool_reference' && typeof tool.functionName === 'string') {
    return { type: 'tool_reference', function_name: tool.functionName, ...(typeof tool.namespace === 'string' ? { namespace: tool.namespace } : {}) };
  }
  if (tool.type === 'namespace' && Array.isArray(tool.tools)) return { ...tool, tools: tool.tools.map(toolSearchToolToApi) };
  if (tool.type === 'function') {
    const { deferLoading, allowedCallers, outputSchema, ...rest } = tool;
    return {
      ...rest,
      ...(typeof deferLoading === 'boolean' ? { defer_loading: deferLoading } : {}),
      ...(Array.isArray(allowedCallers) ? { allowed_callers: allowedCallers } : {}),
      ...(isRecord(outputSchema) ? { output_schema: outputSchema } : {}),
    };
  }
  return tool;
}

/** A tool a search returned, API (snake_case) to protocol (camelCase). */
function toolSearchToolFromApi(tool: unknown): Record<string, any> {
  if (!isRecord(tool)) return tool as Record<string, any>;
  if (tool.type === 'tool_reference' && typeof tool.function_name === 'string') {
    return { type: 'tool_reference', functionName: tool.function_name, ...(typeof tool.namespace === 'string' ? { namespace: tool.namespace } : {}) };
  }
  if (tool.type === 'namespace' && Array.isArray(tool.tools)) return { ...tool, tools: tool.tools.map(toolSearchToolFromApi) };
  if (tool.type === 'function') {
    const { defer_loading, allowed_callers, output_schema, ...rest } = tool;
    return {
      ...rest,
      ...(typeof defer_loading === 'boolean' ? { deferLoading: defer_loading } : {}),
      ...(Array.isArray(allowed_callers) ? { allowedCallers: allowed_callers } : {}),
      ...(isRecord(output_schema) ? { outputSchema: output_schema } : {}),
    };
  }
  return tool;
}

function patchOperationToApi(operation: ApplyPatchOperation): Json {
  if (operation.type !== 'update_file' || operation.moveTo === undefined) return { ...operation };
  const { moveTo, ...rest } = operation;
  return { ...rest, move_to: moveTo };
}

function patchOperationFromApi(operation: Json): ApplyPatchOperation {
  const path = operation.path as string;
  switch (operation.type) {
    case 'create_file':
      return { type: 'create_file', path, diff: operation.diff as string };
    case 'delete_file':
      return { type: 'delete_file', path };
    case 'update_file': {
      const moveTo = operation.move_to;
      if (moveTo !== undefined && moveTo !== null && (typeof moveTo !== 'string' || moveTo === '')) {
        throw new UserError('apply_patch_call update_file move_to must be a non-empty string');
      }
      return { type: 'update_file', path, diff: operation.diff as string, ...(typeof moveTo === 'string' ? { moveTo } : {}) };
    }
    default:
      throw new UserError('Unknown apply_patch operation type');
  }
}
