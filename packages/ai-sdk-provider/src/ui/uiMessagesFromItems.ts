import type { AgentInputItem } from '@baton/types';
import { toolNameOf } from './internal/toolPayloads.js';

/** A part of a UI message this writes (the shapes of `UIMessage` parts in `ai`). */
export type AiSdkUiMessagePart =
  | { type: 'text'; text: string; state: 'done' }
  | { type: 'reasoning'; text: string; state: 'done' }
  | { type: 'step-start' }
  | {
      type: 'dynamic-tool';
      toolName: string;
      toolCallId: string;
      state: 'input-available' | 'approval-requested' | 'output-available';
      input: unknown;
      output?: unknown;
      approval?: { id: string };
    };

/** A UI message (`UIMessage` in `ai`), as `useChat({ messages })` takes it. */
export interface AiSdkUiMessage {
  id: string;
  role: 'user' | 'assistant';
  parts: AiSdkUiMessagePart[];
}

export interface AiSdkUiMessagesFromItemsOptions {
  /** Calls waiting for a decision (their call ids): shown as `approval-requested`, so the UI asks again. */
  readonly pendingApprovals?: Iterable<string | { readonly toolCallId: string }>;
  /** Prefix of the generated message ids (`<prefix>-<index>`). Default `'history'`. */
  readonly idPrefix?: string;
}

type Raw = Record<string, unknown>;

/**
 * A conversation's history (a session's items) as the UI messages `useChat` shows, for a page that
 * reloads a chat: each user message as a user message; what follows it (assistant text, reasoning,
 * tool calls with their input and output) as one assistant message, a step per model response, as
 * the live stream built it. A call still waiting for a decision is `approval-requested` (its
 * approval id is the call id, as in the stream). What never enters history (a streaming tool's
 * progress, a nested agent's text) is not there either.
 */
export function aiSdkUiMessagesFromItems(items: readonly AgentInputItem[], options: AiSdkUiMessagesFromItemsOptions = {}): AiSdkUiMessage[] {
  const pending = new Set([...(options.pendingApprovals ?? [])].map((entry) => (typeof entry === 'string' ? entry : entry.toolCallId)));
  const prefix = options.idPrefix ?? 'history';
  const messages: AiSdkUiMessage[] = [];
  let assistant: AiSdkUiMessage | undefined;
  let stepNeeded = true;
  const calls = new Map<string, Extract<AiSdkUiMessagePart, { type: 'dynamic-tool' }>>();

  const assistantParts = (): AiSdkUiMessagePart[] => {
    if (assistant === undefined) {
      assistant = { id: `${prefix}-${messages.length}`, role: 'assistant', parts: [] };
      messages.push(assistant);
      stepNeeded = true;
    }
    if (stepNeeded) {
      assistant.parts.push({ type: 'step-start' });
      stepNeeded = false;
    }
    return assistant.parts;
  };

  for (const item of items as unknown as readonly Raw[]) {
    const type = item.type ?? 'message';
    if (type === 'message' && item.role === 'user') {
      assistant = undefined;
      messages.push({ id: `${prefix}-${messages.length}`, role: 'user', parts: [{ type: 'text', text: userText(item.content), state: 'done' }] });
    } else if (type === 'message' && item.role === 'assistant') {
      const text = Array.isArray(item.content) ? (item.content as Raw[]).map((part) => (part.type === 'output_text' ? String(part.text) : part.type === 'refusal' ? String(part.refusal) : '')).join('') : '';
      if (text !== '') assistantParts().push({ type: 'text', text, state: 'done' });
    } else if (type === 'reasoning') {
      const text = Array.isArray(item.content) ? (item.content as Raw[]).map((part) => String(part.text ?? '')).join('') : '';
      if (text !== '') assistantParts().push({ type: 'reasoning', text, state: 'done' });
    } else if (type === 'function_call' && typeof item.callId === 'string') {
      const toolCallId = item.callId;
      const part: Extract<AiSdkUiMessagePart, { type: 'dynamic-tool' }> = pending.has(toolCallId)
        ? { type: 'dynamic-tool', toolName: toolNameOf(item), toolCallId, state: 'approval-requested', input: parseArguments(item.arguments), approval: { id: toolCallId } }
        : { type: 'dynamic-tool', toolName: toolNameOf(item), toolCallId, state: 'input-available', input: parseArguments(item.arguments) };
      assistantParts().push(part);
      calls.set(toolCallId, part);
    } else if (type === 'function_call_result' && typeof item.callId === 'string') {
      const part = calls.get(item.callId);
      if (part !== undefined) {
        part.state = 'output-available';
        part.output = outputOf(item.output);
        delete part.approval;
      }
      // The model's next response (after the tool results) is a new step.
      stepNeeded = true;
    }
  }
  return messages;
}

function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? (content as Raw[]).map((part) => (part.type === 'input_text' ? String(part.text) : '')).join('') : '';
}

function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { raw: text };
  }
}

/** A stored tool output as the live stream sent it: the text of a text output, else the stored value. */
function outputOf(output: unknown): unknown {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null && !Array.isArray(output) && (output as Raw).type === 'text') return String((output as Raw).text);
  if (Array.isArray(output) && output.every((part: Raw) => part.type === 'text' || part.type === 'input_text')) return output.map((part: Raw) => String(part.text)).join('');
  return output;
}
