import {
  ModelBehaviorError,
  RunHandoffCallItem,
  RunToolApprovalItem,
  RunMessageOutputItem,
  RunReasoningItem,
  RunToolCallItem,
  RunToolCallOutputItem,
  RunToolSearchCallItem,
  RunToolSearchOutputItem,
  RunCompactionItem,
  type FunctionCallItem,
  type FunctionTool,
  type HandoffContract,
  type HostedTool,
  type HostedToolCallItem,
  type ModelResponse,
} from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { ModelRunItem } from '../../../state/internal/items.js';
import { assistantText, responseOutputText } from '../outputText.js';
import { checkCallerAllowed } from '../../../definitions/internal/allowedCallers.js';
import { classifyLocalCall, type LocalToolRun } from './localToolRuns.js';
import { qualifiedToolName } from '../../../definitions/internal/qualifiedToolName.js';
import { CompactionItemValidationError } from '@baton/types/internal';

export interface ToolRun {
  readonly call: FunctionCallItem;
  /** Undefined when the model named a tool this agent does not have. */
  readonly tool: FunctionTool<any> | undefined;
}

export interface HandoffRun {
  readonly call: FunctionCallItem;
  readonly handoff: HandoffContract<any>;
  /** Further handoff calls in the same response: ignored (first wins), never in history. */
  readonly ignoredCalls: FunctionCallItem[];
}

/** A remote MCP server (a `hostedMcpTool`) asking whether one of its tools may run. */
export interface HostedApprovalRequest {
  readonly item: RunToolApprovalItem;
  readonly tool: HostedTool;
}

/** A model response sorted into what the loop must do with it. */
export interface ProcessedResponse {
  /** Items the model produced, in order (ignored extra handoff calls left out). */
  readonly newItems: ModelRunItem[];
  readonly toolRuns: ToolRun[];
  /** At most one: when the model asks for several handoffs, the first wins. */
  readonly handoffRun: HandoffRun | undefined;
  /** The text of the last assistant message, if any (all messages' text when they are parts of one answer around reasoning). */
  readonly messageText: string | undefined;
  /** The last assistant message's refusal, when that message has no text at all. */
  readonly refusal: string | undefined;
  readonly hostedApprovals: HostedApprovalRequest[];
  /** Calls of the agent's local tools (shell, apply-patch, computer), in response order. */
  readonly localRuns: LocalToolRun[];
  /** Client tool searches the SDK answered in this turn (`clientToolSearch.ts`): the model is asked again. */
  readonly answeredToolSearches?: number;
}

export function classifyResponse(
  response: ModelResponse,
  agent: Agent<any, any>,
  tools: readonly FunctionTool<any>[],
  handoffs: readonly HandoffContract<any>[],
  /** The agent's prompt template may add tools of its own (see `promptMaySupplyTools`). */
  promptSuppliedTools = false,
): ProcessedResponse {
  const newItems: ModelRunItem[] = [];
  const toolRuns: ToolRun[] = [];
  let handoffRun: HandoffRun | undefined;
  let messageText: string | undefined;
  let refusal: string | undefined;
  const hostedApprovals: HostedApprovalRequest[] = [];
  const localRuns: LocalToolRun[] = [];
  for (const output of response.output) {
    const local = classifyLocalCall(output, agent);
    if (local) {
      newItems.push(local.item);
      if (local.run) localRuns.push(local.run);
    } else if (output.type === 'function_call') {
      const handoff = output.namespace === undefined ? handoffs.find((h) => h.toolName === output.name) : undefined;
      if (handoff) {
        if (handoffRun) {
          handoffRun.ignoredCalls.push(output); // first handoff wins; the others never enter history
          continue;
        }
        handoffRun = { call: output, handoff, ignoredCalls: [] };
        newItems.push(new RunHandoffCallItem(output, agent));
      } else {
        const tool = toolFor(output, tools);
        if (tool) checkCallerAllowed(output, tool.allowedCallers, qualifiedToolName(tool));
        toolRuns.push({ call: output, tool });
        newItems.push(new RunToolCallItem(output, agent));
      }
    } else if (output.type === 'hosted_tool_call') {
      newItems.push(new RunToolCallItem(output, agent));
      if (output.name === 'mcp_approval_request' || output.providerData?.type === 'mcp_approval_request') {
        hostedApprovals.push(hostedApproval(output, agent));
      }
    } else if (output.type === 'reasoning') {
      newItems.push(new RunReasoningItem(output, agent));
    } else if (output.type === 'program') {
      if (!promptSuppliedTools) checkProgrammaticToolCalling(agent);
      newItems.push(new RunToolCallItem(output as never, agent));
    } else if (output.type === 'program_output') {
      newItems.push(new RunToolCallOutputItem(output as never, agent, output.output));
    } else if (output.type === 'tool_search_call') {
      newItems.push(new RunToolSearchCallItem(output, agent));
    } else if (output.type === 'tool_search_output') {
      newItems.push(new RunToolSearchOutputItem(output, agent));
    } else if (output.type === 'compaction') {
      // Sent back on every later turn and kept in sessions: a marker without its payload would break them all.
      if (typeof (output as { encrypted_content?: unknown }).encrypted_content !== 'string') {
        throw new CompactionItemValidationError(`Compaction item missing encrypted_content: the model returned a compaction item${output.id ? ` (${output.id})` : ''} without its encrypted payload.`);
      }
      newItems.push(new RunCompactionItem(output, agent));
    } else if ((output.type === 'message' || output.type === undefined) && (output as { role?: string }).role === 'assistant') {
      const item = new RunMessageOutputItem(output, agent);
      newItems.push(item);
      messageText = item.content;
      // A refusal counts only when the message has no text at all (as the reference reads it).
      const refusals = item.rawItem.content.flatMap((part) => (part.type === 'refusal' ? [part.refusal] : []));
      const hasText = item.rawItem.content.some((part) => part.type === 'output_text');
      refusal = refusals.length > 0 && !hasText ? refusals.join('') : undefined;
    }
  }
  // The final text: the last message's, or all the messages' when the response says it in parts
  // around reasoning (see `responseOutputText`).
  if (messageText !== undefined && assistantText(lastMessage(response)) !== undefined) messageText = responseOutputText(response.output) || messageText;
  return { newItems, toolRuns, handoffRun, messageText, refusal, hostedApprovals, localRuns };
}

/**
 * The tool a call names: by name within the call's namespace (\`toolNamespace()\`), or, for a call
 * without one, a tool of that name outside any namespace first.
 */
function toolFor(call: FunctionCallItem, tools: readonly FunctionTool<any>[]): FunctionTool<any> | undefined {
  const named = tools.filter((t) => t.name === call.name);
  return named.find((t) => t.namespace === call.namespace) ?? (call.namespace === undefined ? named[0] : undefined);
}

/**
 * A program item (Programmatic Tool Calling) needs the agent to offer `programmaticToolCallingTool()`,
 * unless the agent's prompt template may supply it.
 */
function checkProgrammaticToolCalling(agent: Agent<any, any>): void {
  if (agent.getHostedTools().some((tool) => tool.providerData?.type === 'programmatic_tool_calling')) return;
  throw new ModelBehaviorError(`Model produced a program item without programmaticToolCallingTool() in Agent (${agent.name}).`);
}

function lastMessage(response: ModelResponse): { type?: string } {
  const messages = response.output.filter((item) => (item.type === 'message' || item.type === undefined) && (item as { role?: string }).role === 'assistant');
  return messages[messages.length - 1] ?? {};
}

/** The approval item of an `mcp_approval_request`, named after the remote tool, for the agent's `hostedMcpTool` of that server. */
function hostedApproval(output: HostedToolCallItem, agent: Agent<any, any>): HostedApprovalRequest {
  const data = (output.providerData ?? {}) as { server_label?: string; name?: string; id?: string };
  const tool = agent.getHostedTools().find((t) => t.providerData?.type === 'mcp' && t.providerData.server_label === data.server_label);
  if (!tool) throw new ModelBehaviorError(`MCP server (${String(data.server_label)}) not found in Agent (${agent.name})`);
  const raw: HostedToolCallItem = { type: 'hosted_tool_call', name: String(data.name ?? output.name), status: 'in_progress', providerData: output.providerData ?? {} };
  const id = data.id ?? output.id;
  if (id !== undefined) raw.id = id;
  return { item: new RunToolApprovalItem(raw, agent), tool };
}
