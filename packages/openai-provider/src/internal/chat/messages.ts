import { UserError, type AgentInputItem, type AssistantContent, type FunctionCallResultOutput, type UserContent } from '@baton/types';
import { extraFields, isRecord, type Json } from '../json.js';
import { userContentPart } from './userContent.js';

const PROGRAMMATIC_HISTORY = 'Programmatic Tool Calling history is not supported for chat completions. Please use the Responses API.';

/** A function name Chat Completions accepts (a dotted, namespace-qualified name is not one). */
const FUNCTION_NAME = /^[A-Za-z0-9_-]+$/;

/** What the reference sends in place of a tool output Chat Completions cannot carry (images only). */
export const OMITTED_TOOL_OUTPUT = '[tool output omitted]';

export interface ChatMessageOptions {
  /** `strictFeatureValidation`: what Chat Completions cannot carry is a `UserError` instead of a warning. */
  readonly strict: boolean;
  readonly warn: (message: string) => void;
}

/**
 * Protocol items to Chat Completions `messages`, as the reference builds them. Message content is
 * sent as parts, each with its `providerData`. An assistant turn is one assistant message: its text,
 * the reasoning before it (`reasoning`, which some servers read), and the function calls around it
 * (`tool_calls`); each function result becomes a `tool` message. An assistant's audio is sent back by
 * its id (`providerData.id`).
 */
export function toChatMessages(input: string | AgentInputItem[], systemInstructions: string | undefined, options: ChatMessageOptions): Json[] {
  const out = typeof input === 'string' ? [{ role: 'user', content: input }] : new ChatHistory(options).convert(input);
  if (systemInstructions) out.unshift({ role: 'system', content: systemInstructions });
  return out;
}

/** The running conversion: the assistant message being assembled and the messages already out. */
class ChatHistory {
  readonly #out: Json[] = [];
  /** The assistant message that reasoning, text and function calls of one turn gather into. */
  #assistant: Json | undefined;
  /** Function calls' extra assistant fields, applied again when the turn's text arrives after them. */
  #callFields: Json = {};

  constructor(readonly options: ChatMessageOptions) {}

  convert(items: AgentInputItem[]): Json[] {
    for (const item of items) this.#add(item);
    this.#flush();
    return this.#out;
  }

  #add(item: AgentInputItem): void {
    if (item.type === 'message' || (item.type === undefined && typeof (item as { role?: unknown }).role === 'string')) return this.#message(item as MessageLike);
    switch (item.type) {
      case 'reasoning': {
        // Reasoning starts the next assistant turn: a message that already has content does not take it.
        if (this.#assistant?.content !== null) this.#flush();
        this.#ensureAssistant().reasoning = item.rawContent?.[0]?.text;
        return;
      }
      case 'hosted_tool_call':
        if (item.name !== 'file_search_call') throw new UserError(`Hosted tool calls are not supported for chat completions. Got item: ${JSON.stringify(item)}`);
        return this.#fileSearchCall(item);
      case 'function_call':
        return this.#functionCall(item);
      case 'function_call_result': {
        if (item.caller?.type === 'program') throw new UserError(PROGRAMMATIC_HISTORY);
        this.#flush();
        this.#out.push({ role: 'tool', tool_call_id: item.callId, content: toolText(item.output, this.options), ...extraFields(item.providerData, ['role', 'tool_call_id', 'content']) });
        return;
      }
      case 'computer_call':
      case 'computer_call_result':
      case 'shell_call':
      case 'shell_call_output':
      case 'apply_patch_call':
      case 'apply_patch_call_output':
        throw new UserError(`Computer use calls are not supported for chat completions. Got item: ${JSON.stringify(item)}`);
      case 'tool_search_call':
      case 'tool_search_output':
        throw new UserError('Tool search items are not supported for chat completions. Please use the Responses API when replaying tool search history.');
      case 'compaction':
        throw new UserError('Compaction items are not supported for chat completions. Please use the Responses API when working with compaction.');
      case 'program':
      case 'program_output':
        throw new UserError(PROGRAMMATIC_HISTORY);
      case 'unknown':
        // It ends the assistant turn, so reasoning does not carry across it.
        this.#flush();
        this.#out.push({ ...item.providerData });
        return;
      default:
        throw new UserError(`Unsupported input item for the Chat Completions API: ${JSON.stringify(item)}.`);
    }
  }

  #message(item: MessageLike): void {
    const { role, content, providerData } = item;
    // A streamed turn may list its function calls before its text: they stay one assistant message.
    const withCalls = role === 'assistant' && this.#assistant?.content === null && hasCalls(this.#assistant) ? this.#assistant : undefined;
    const reasoningOnly = role === 'assistant' && withCalls === undefined ? this.#takeReasoningOnly() : undefined;
    if (withCalls === undefined) this.#flush();
    if (role === 'assistant') {
      this.#checkPhase(item.phase ?? (isRecord(providerData) ? providerData.phase : undefined));
      const reasoning = reasoningOnly?.reasoning ?? withCalls?.reasoning;
      const assistant: Json = {
        role: 'assistant',
        content: assistantParts(content as string | AssistantContent[]),
        ...(typeof reasoning === 'string' ? { reasoning } : {}),
        ...extraFields(providerData, ['role', 'content', 'tool_calls', 'audio', 'phase']),
      };
      const audio = Array.isArray(content) ? (content as AssistantContent[]).find((part) => part.type === 'audio') : undefined;
      // The API takes an earlier spoken answer back by its id, which the response put in providerData.
      if (audio !== undefined) assistant.audio = { id: '', ...audio.providerData };
      if (withCalls !== undefined) Object.assign(withCalls, assistant, this.#callFields);
      else this.#assistant = assistant;
    } else if (role === 'user') {
      this.#out.push({ role, content: userParts(content as string | UserContent[]), ...extraFields(providerData, ['role', 'content', 'phase']) });
    } else if (role === 'system') {
      this.#out.push({ role, content, ...extraFields(providerData, ['role', 'content', 'phase']) });
    } else {
      throw new UserError(`Unsupported message role in input: ${JSON.stringify(role)}.`);
    }
  }

  #checkPhase(phase: unknown): void {
    if (phase === undefined || phase === null) return;
    if (phase !== 'commentary' && phase !== 'final_answer') {
      throw new UserError(`Invalid assistant message phase: ${JSON.stringify(phase)}. Expected "commentary" or "final_answer".`);
    }
    const message = 'Assistant message phase is not supported by the Chat Completions API. Use the Responses API to preserve assistant message phases.';
    if (this.options.strict) throw new UserError(message);
    this.options.warn(`${message} The phase will be dropped.`);
  }

  #functionCall(item: Extract<AgentInputItem, { type: 'function_call' }>): void {
    if (item.caller?.type === 'program') throw new UserError(PROGRAMMATIC_HISTORY);
    if (!FUNCTION_NAME.test(item.name) || (typeof item.namespace === 'string' && item.namespace.trim() !== '')) {
      throw new UserError('Namespaced function call history is not supported for chat completions. Please use the Responses API when replaying namespaced tool calls.');
    }
    const assistant = this.#ensureAssistant();
    const data = item.providerData;
    // Extra fields go both on the call and on the assistant message, as the reference sends them.
    const fields = extraFields(data, ['id', 'type', 'function', 'role', 'content', 'tool_calls', 'audio']);
    const calls = (assistant.tool_calls ?? []) as Json[];
    calls.push({
      id: item.callId,
      type: 'function',
      function: { name: item.name, arguments: item.arguments ?? '{}', ...extraFields(isRecord(data) ? data.function : undefined, ['name', 'arguments']) },
      ...fields,
    });
    assistant.tool_calls = calls;
    Object.assign(this.#callFields, fields);
    Object.assign(assistant, fields);
  }

  /** A file search call replayed as the function call Chat Completions models were shown. */
  #fileSearchCall(item: Extract<AgentInputItem, { type: 'hosted_tool_call' }>): void {
    const assistant = this.#ensureAssistant();
    const data = isRecord(item.providerData) ? item.providerData : {};
    const fn = isRecord(data.function) ? data.function : {};
    const calls = (assistant.tool_calls ?? []) as Json[];
    calls.push({
      id: item.id || '',
      type: 'function',
      function: {
        name: 'file_search_call',
        arguments: JSON.stringify({ queries: data.queries ?? [], status: item.status, ...extraFields(fn.arguments, ['queries', 'status']) }),
        ...extraFields(fn, ['name', 'arguments']),
      },
      ...extraFields(data, ['id', 'type', 'function']),
    });
    assistant.tool_calls = calls;
  }

  #ensureAssistant(): Json {
    return (this.#assistant ??= { role: 'assistant', content: null, tool_calls: [] });
  }

  /** The pending assistant message when it holds only reasoning (that reasoning belongs to the next message). */
  #takeReasoningOnly(): Json | undefined {
    const pending = this.#assistant;
    if (pending === undefined || pending.content !== null || hasCalls(pending) || !('reasoning' in pending)) return undefined;
    this.#assistant = undefined;
    return pending;
  }

  #flush(): void {
    const assistant = this.#assistant;
    if (assistant !== undefined) {
      if (!hasCalls(assistant)) delete assistant.tool_calls;
      this.#out.push(assistant);
      this.#assistant = undefined;
    }
    this.#callFields = {};
  }
}

interface MessageLike {
  readonly role: string;
  readonly content: unknown;
  readonly providerData?: unknown;
  readonly phase?: unknown;
}

function hasCalls(message: Json | undefined): boolean {
  return Array.isArray(message?.tool_calls) && message.tool_calls.length > 0;
}

/** An assistant message's text and refusal parts; its audio goes on the message (`audio`), images nowhere. */
function assistantParts(content: string | AssistantContent[]): string | Json[] {
  if (typeof content === 'string') return content;
  const out: Json[] = [];
  for (const part of content) {
    if (part.type === 'output_text') out.push({ type: 'text', text: part.text, ...extraFields(part.providerData, ['type', 'text']) });
    else if (part.type === 'refusal') out.push({ type: 'refusal', refusal: part.refusal, ...extraFields(part.providerData, ['type', 'refusal']) });
    else if (part.type !== 'audio' && part.type !== 'image') throw new UserError(`Unsupported assistant content part: ${JSON.stringify(part)}.`);
  }
  return out;
}

function userParts(content: string | UserContent[]): string | Json[] {
  return typeof content === 'string' ? content : content.map(userContentPart);
}

/**
 * A Chat Completions tool message holds text only: the text parts, joined; an output with no text
 * (an image or a file) becomes the reference's placeholder, with a warning (with
 * `strictFeatureValidation`, a `UserError`, as is a list that mixes text with other parts).
 */
function toolText(output: FunctionCallResultOutput, options: ChatMessageOptions): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    const texts = output.flatMap((part) => (part.type === 'input_text' ? [part.text] : []));
    if (texts.length === 0) return omitted(options);
    if (options.strict && texts.length !== output.length) throw new UserError('Only text tool outputs are supported for chat completions.');
    return texts.join('');
  }
  const part = output as unknown;
  if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') return part.text;
  if (isRecord(part) && (part.type === 'image' || part.type === 'file')) return omitted(options);
  throw new UserError(`Only text tool outputs are supported for chat completions. Got item: ${JSON.stringify(output)}`);
}

function omitted(options: ChatMessageOptions): string {
  const message = 'Chat Completions tool outputs cannot be empty or contain only non-text content.';
  if (options.strict) throw new UserError(message);
  options.warn(`${message} Replacing the tool output with a placeholder; enable strict feature validation to raise an error instead.`);
  return OMITTED_TOOL_OUTPUT;
}
