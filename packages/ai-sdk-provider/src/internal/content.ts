import type { LanguageModelV3Content, LanguageModelV4Content, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import type { AgentOutputItem, AssistantContent, AssistantMessageItem, HostedToolCallItem, OutputText, ProviderData } from '@baton/types';
import { AiSdkProviderError } from '../aiSdkProviderError.js';
import { label } from './toProviderError.js';
import { itemProviderData, mergeMetadata, type ModelIdentity } from './providerData.js';
import { CONTENT_FILTER_MARK, storedFileData, type StoredContent } from './storedContent.js';
import { TOOL_SEARCH_NAME, toolSearchCall, toolSearchOutput, type ToolSearchTarget } from './toolSearchOutput.js';

type Meta = SharedV4ProviderMetadata | undefined;

/** One piece of model output, the same whether it came whole (`doGenerate`) or assembled from stream parts. */
export type Block =
  | { kind: 'text'; text: string; id?: string | undefined; metadata?: Meta; citations?: unknown[] | undefined }
  | { kind: 'reasoning'; text: string; id?: string | undefined; metadata?: Meta }
  | { kind: 'tool-call'; toolCallId: string; toolName: string; input: string; providerExecuted?: boolean | undefined; metadata?: Meta }
  | { kind: 'tool-result'; toolCallId: string; toolName: string; result: unknown; isError?: boolean | undefined; metadata?: Meta }
  | { kind: 'stored'; content: StoredContent; metadata?: Meta }
  | { kind: 'source'; source: unknown };

export interface FinishInfo {
  readonly unified: string;
  readonly raw?: string | undefined;
}

export interface OutputContext {
  readonly model: ModelIdentity;
  readonly responseId: string | undefined;
  readonly requestId: string | undefined;
  /** `doGenerate`'s response-level provider metadata: stamped on text messages, and on tool calls that have none of their own (the reference's shape). */
  readonly responseMetadata?: Meta;
  /** The request's hosted tool search: the model's `tool_search` calls (and a provider search's results) are tool search items. */
  readonly toolSearch?: ToolSearchTarget | undefined;
}

/** The blocks of a `doGenerate` result's content (v3 or v4), in order. */
export function blocksOfContent(content: ReadonlyArray<ContentPart>): Block[] {
  return content.map(blockOf);
}

export type ContentPart = LanguageModelV4Content | LanguageModelV3Content;

/** One content part (or the stream part of the same type) as a block. */
export function blockOf(part: ContentPart): Block {
  switch (part.type) {
    case 'text':
      return { kind: 'text', text: part.text, metadata: part.providerMetadata, citations: 'citations' in part ? part.citations : undefined };
    case 'reasoning':
      return { kind: 'reasoning', text: part.text, metadata: part.providerMetadata };
    case 'tool-call':
      return { kind: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: inputText(part.input), providerExecuted: part.providerExecuted, metadata: part.providerMetadata };
    case 'tool-result':
      return { kind: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, result: part.result, isError: part.isError, metadata: part.providerMetadata };
    case 'file':
    case 'reasoning-file':
      return { kind: 'stored', content: { type: part.type, mediaType: part.mediaType, data: storedFileData(part.data) }, metadata: part.providerMetadata };
    case 'custom':
      return { kind: 'stored', content: { type: 'custom', kind: part.kind }, metadata: part.providerMetadata };
    case 'tool-approval-request':
      return { kind: 'stored', content: { type: 'tool-approval-request', approvalId: part.approvalId, toolCallId: part.toolCallId }, metadata: part.providerMetadata };
    case 'source':
      return { kind: 'source', source: part };
    default:
      // A content type newer than this package: kept as it came, never replayed.
      return { kind: 'stored', content: part as unknown as StoredContent };
  }
}

/** The spec says tool-call input is JSON text; a provider that hands over a value gets it encoded. */
export function inputText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {});
}

/**
 * Protocol items for a response, in the model's order: the text blocks of a run (until a tool call or
 * a non-empty reasoning block; sources, files and empty reasoning do not end it) make one assistant
 * message, their text joined into one `output_text` (a block with its own provider metadata, a
 * Gemini text signature say, gets its own part so the metadata stays with its text), reasoning blocks
 * `reasoning` items, client tool calls `function_call` items (the provider's call id, the input
 * exactly as sent), provider-executed calls and their results `hosted_tool_call` items (tool search
 * calls and a provider search's results `tool_search_call` / `tool_search_output` items when the
 * request offers a hosted tool search, each where the model put it), and
 * content Baton has no item for `unknown` items. A response that stopped at the token limit
 * (`length`) or on an error before any output is an `AiSdkProviderError`; a content-filter finish
 * makes the answer a refusal (its text, or a sentence saying the filter stopped it).
 */
export function outputItems(blocks: readonly Block[], finish: FinishInfo, context: OutputContext): { output: AgentOutputItem[]; sources: unknown[] } {
  const output: AgentOutputItem[] = [];
  const sources: unknown[] = [];
  const hosted = new Map<string, HostedToolCallItem>();
  const stamp = (metadata?: Meta, extra?: ProviderData) => itemProviderData(context.model, context.responseId, metadata, extra);
  let message: AssistantMessageItem | undefined;
  for (const block of blocks) {
    switch (block.kind) {
      case 'text': {
        if (block.text === '' && block.metadata === undefined) break;
        const data = { ...block.metadata, ...(block.citations && block.citations.length > 0 ? { citations: block.citations } : {}) };
        const last = message?.content.at(-1);
        if (message === undefined) {
          message = { type: 'message', role: 'assistant', status: 'completed', content: [], providerData: stamp(context.responseMetadata) };
          if (block.id !== undefined) message.id = block.id;
          output.push(message);
        }
        if (last?.type === 'output_text' && Object.keys(data).length === 0) {
          // Text split over parts (around reasoning, sources or files) is one text: nothing is lost, and JSON stays whole.
          last.text += block.text;
          break;
        }
        const part: OutputText = { type: 'output_text', text: block.text };
        if (Object.keys(data).length > 0) part.providerData = data;
        message.content.push(part);
        break;
      }
      case 'reasoning':
        // Empty reasoning (no text, no signature) is no output and does not split the text around it.
        if (block.text === '' && block.metadata === undefined) break;
        message = undefined;
        output.push({
          type: 'reasoning',
          ...(block.id === undefined ? {} : { id: block.id }),
          content: [{ type: 'input_text', text: block.text }],
          rawContent: [{ type: 'reasoning_text', text: block.text }],
          providerData: stamp(block.metadata),
        });
        break;
      case 'tool-call':
        message = undefined;
        if (context.toolSearch !== undefined && block.toolName === TOOL_SEARCH_NAME) {
          output.push(toolSearchCall(block, context.toolSearch, stamp(block.metadata ?? context.responseMetadata)));
        } else if (block.providerExecuted === true) {
          const item: HostedToolCallItem = { type: 'hosted_tool_call', id: block.toolCallId, name: block.toolName, arguments: block.input, status: 'in_progress', providerData: stamp(block.metadata) };
          hosted.set(block.toolCallId, item);
          output.push(item);
        } else {
          output.push({ type: 'function_call', callId: block.toolCallId, name: block.toolName, arguments: block.input, status: 'completed', providerData: stamp(block.metadata ?? context.responseMetadata) });
        }
        break;
      case 'tool-result': {
        message = undefined;
        if (context.toolSearch?.providerTool === true && block.toolName === TOOL_SEARCH_NAME) {
          output.push(toolSearchOutput(block, stamp(block.metadata)));
          break;
        }
        let item = hosted.get(block.toolCallId);
        if (item === undefined) {
          item = { type: 'hosted_tool_call', id: block.toolCallId, name: block.toolName, status: 'in_progress', providerData: stamp() };
          hosted.set(block.toolCallId, item);
          output.push(item);
        }
        item.output = JSON.stringify(block.result ?? null);
        item.status = block.isError === true ? 'failed' : 'completed';
        item.providerData = mergeMetadata(item.providerData as Meta, block.metadata) as ProviderData;
        break;
      }
      case 'stored':
        // Kept beside the text (a generated file does not split the answer around it).
        output.push({ type: 'unknown', providerData: stamp(block.metadata, { aiSdkContent: block.content }) });
        break;
      case 'source':
        sources.push(block.source);
        break;
    }
  }
  checkFinish(output, finish, context);
  return { output, sources };
}

function checkFinish(output: AgentOutputItem[], finish: FinishInfo, context: OutputContext): void {
  const answered = output.some((item) => item.type === 'message' || item.type === 'function_call' || item.type === 'hosted_tool_call' || item.type === 'tool_search_call' || item.type === 'tool_search_output');
  const raw = finish.raw === undefined ? '' : ` (raw: ${finish.raw})`;
  const fail = (reason: 'response_incomplete' | 'response_failed' | 'stream_interrupted', message: string) =>
    new AiSdkProviderError({ reason, message: `AI SDK model ${label(context)} ${message}`, provider: context.model.provider, modelId: context.model.modelId, requestId: context.requestId, code: finish.raw });
  if (finish.unified === 'length' && !answered) throw fail('response_incomplete', `response stopped at the token limit (finish reason 'length'${raw}) before producing any output.`);
  if (finish.unified === 'error' && !answered) throw fail('response_failed', `response finished with reason 'error'${raw} and no output.`);
  if (finish.unified === 'interrupted') throw fail('stream_interrupted', `response was interrupted before it completed (finish reason 'interrupted'${raw}).`);
  if (finish.unified === 'content-filter') {
    // What the model wrote before the filter stopped it is its refusal (Anthropic's `refusal` stop,
    // Gemini's SAFETY); with no text, a sentence of our own says why the answer ended.
    const last = output.at(-1);
    const message = last?.type === 'message' ? last : undefined;
    const text = message?.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])).join('') ?? '';
    // Only our own sentence is marked: it is never sent back to the model, the model's words are.
    const refusal: AssistantContent =
      text !== ''
        ? { type: 'refusal', refusal: text }
        : { type: 'refusal', refusal: `The provider's content filter stopped the response (finish reason 'content-filter'${raw}).`, providerData: { [CONTENT_FILTER_MARK]: true } };
    if (message) {
      message.content = [...message.content.filter((part) => part.type !== 'output_text'), refusal];
      message.status = 'incomplete';
    } else output.push({ type: 'message', role: 'assistant', status: 'incomplete', content: [refusal], providerData: itemProviderData(context.model, context.responseId) });
  }
}
