import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import {
  UserError,
  type AgentInputItem,
  type AssistantMessageItem,
  type FunctionCallItem,
  type HostedToolCallItem,
  type ReasoningItem,
  type UnknownItem,
  type UserContent,
} from '@baton/types';
import type { AiSdkSpecificationVersion } from '../languageModel.js';
import { fileSourceOf, mediaTypeOf, referenceKey } from './fileData.js';
import { compact, isRecord, parseJson } from './json.js';
import type { AssistantPart, FilePart, PromptMessage, ToolResultPart, UserPart } from './promptTypes.js';
import { isFromModel, providerOptionsOf, type ModelIdentity } from './providerData.js';
import { CONTENT_FILTER_MARK, type StoredContent, type StoredFileData } from './storedContent.js';
import { toolResultOutput } from './toolOutput.js';
import { ToolSearchPrompt } from './toolSearchPrompt.js';

export interface PromptContext {
  readonly spec: AiSdkSpecificationVersion;
  readonly model: ModelIdentity;
}

/**
 * Protocol items to an AI SDK prompt. The system instructions come first. The items of one model
 * turn (reasoning, assistant messages, function calls, provider-executed calls) become one
 * assistant message, in their order, so a provider sees its thinking blocks beside the tool calls
 * they led to; the function results that follow become one `tool` message. Tool searches follow
 * the same rule (`toolSearchPrompt.ts`): a provider-executed search's result stays in the turn. Provider metadata kept
 * in an item's `providerData` (Anthropic thinking signatures, Gemini thought signatures, ...) goes
 * back as the part's `providerOptions`, when the item came from this model.
 */
export function toPrompt(input: string | AgentInputItem[], systemInstructions: string | undefined, context: PromptContext): PromptMessage[] {
  const out: PromptMessage[] = [];
  if (systemInstructions) out.push({ role: 'system', content: systemInstructions });
  if (typeof input === 'string') {
    out.push({ role: 'user', content: [{ type: 'text', text: input }] });
    return out;
  }
  let assistant: AssistantPart[] | undefined;
  let tool: ToolResultPart[] | undefined;
  const flush = () => {
    if (assistant !== undefined && assistant.length > 0) out.push({ role: 'assistant', content: assistant });
    if (tool !== undefined) out.push({ role: 'tool', content: tool });
    assistant = undefined;
    tool = undefined;
  };
  const assistantParts = (): AssistantPart[] => {
    if (tool !== undefined) flush();
    return (assistant ??= []);
  };
  const searches = new ToolSearchPrompt();
  for (const item of input) {
    if (item.type === undefined || item.type === 'message') {
      const message = item;
      if (message.role === 'assistant') {
        assistantParts().push(...assistantText(message, context));
        continue;
      }
      flush();
      const providerOptions = optionsOf(context, message.providerData);
      if (message.role === 'system') {
        if (typeof message.content !== 'string') throw new UserError('A system message item must have string content.');
        out.push(withOptions({ role: 'system', content: message.content }, providerOptions));
      } else if (message.role === 'user') {
        out.push(withOptions({ role: 'user', content: userParts(message.content, context) }, providerOptions));
      } else {
        throw new UserError(`Unsupported message role in input: ${JSON.stringify((message as { role?: unknown }).role)}.`);
      }
      continue;
    }
    switch (item.type) {
      case 'reasoning': {
        const part = reasoningPart(item, context);
        if (part !== undefined) assistantParts().push(part);
        break;
      }
      case 'function_call':
        assistantParts().push(toolCallPart(item, context));
        break;
      case 'hosted_tool_call':
        assistantParts().push(...hostedCallParts(item, context));
        break;
      case 'function_call_result':
        if (assistant !== undefined) flush();
        (tool ??= []).push(
          compact({
            type: 'tool-result' as const,
            toolCallId: item.callId,
            toolName: item.name,
            output: toolResultOutput(item.output, { spec: context.spec, provider: context.model.provider, toolName: item.name }),
            providerOptions: optionsOf(context, item.providerData),
          }),
        );
        break;
      case 'tool_search_call':
        assistantParts().push(searches.call(item as unknown as Record<string, unknown>, optionsOf(context, item.providerData)));
        break;
      case 'tool_search_output': {
        const { place, part } = searches.output(item as unknown as Record<string, unknown>, optionsOf(context, item.providerData));
        if (place === 'assistant') assistantParts().push(part);
        else {
          if (assistant !== undefined) flush();
          (tool ??= []).push(part);
        }
        break;
      }
      case 'unknown': {
        const part = storedPart(item, context);
        if (part !== undefined) assistantParts().push(part);
        break;
      }
      default:
        throw new UserError(
          `The AI SDK adapter cannot send an input item of type ${JSON.stringify((item as { type?: unknown }).type)}: ${JSON.stringify(item).slice(0, 200)}.`,
        );
    }
  }
  flush();
  return out;
}

function optionsOf(context: PromptContext, ...providerData: unknown[]): SharedV4ProviderOptions | undefined {
  return providerOptionsOf(...providerData.filter((data) => isFromModel(data, context.model)));
}

function withOptions<T extends PromptMessage>(message: T, providerOptions: SharedV4ProviderOptions | undefined): T {
  return providerOptions === undefined ? message : { ...message, providerOptions };
}

/** An assistant message's text and refusals as text parts; the refusal this adapter wrote for a content filter is not the model's words and stays out. */
function assistantText(item: AssistantMessageItem, context: PromptContext): AssistantPart[] {
  const parts: AssistantPart[] = [];
  for (const part of item.content) {
    if (part.type === 'refusal' && isRecord(part.providerData) && part.providerData[CONTENT_FILTER_MARK] === true) continue;
    const text = part.type === 'output_text' ? part.text : part.type === 'refusal' ? part.refusal : undefined;
    if (text === undefined) throw new UserError(`Unsupported assistant content part: ${JSON.stringify(part)}.`);
    const providerOptions = optionsOf(context, item.providerData, part.providerData);
    if (text === '' && providerOptions === undefined) continue;
    parts.push(compact({ type: 'text' as const, text, providerOptions }));
  }
  return parts;
}

function reasoningPart(item: ReasoningItem, context: PromptContext): AssistantPart | undefined {
  const raw = item.rawContent?.map((part) => part.text).join('') ?? '';
  const text = raw !== '' ? raw : item.content.map((part) => part.text).join('');
  const providerOptions = optionsOf(context, item.providerData);
  if (text === '' && providerOptions === undefined) return undefined;
  return compact({ type: 'reasoning' as const, text, providerOptions });
}

function toolCallPart(item: FunctionCallItem, context: PromptContext): AssistantPart {
  const providerOptions = optionsOf(context, item.providerData);
  return { type: 'tool-call', toolCallId: item.callId, toolName: item.name, input: argumentsOf(item.arguments), ...(providerOptions ? { providerOptions } : {}) };
}

/**
 * A spec's tool-call `input` is a JSON value. Arguments that are not JSON (the model's mistake,
 * already answered by the run loop) go back as `{}`: vendors reject a tool call whose input is not
 * an object, and the tool result that follows tells the model what went wrong.
 */
function argumentsOf(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return {};
  return parseJson(text)?.value ?? {};
}

/** A call the provider ran (made by this adapter from this model): the call and, once known, its result. */
function hostedCallParts(item: HostedToolCallItem, context: PromptContext): AssistantPart[] {
  const data = item.providerData;
  if (!isRecord(data) || typeof data.model !== 'string' || !isFromModel(data, context.model) || item.id === undefined) return [];
  const providerOptions = providerOptionsOf(data);
  const parts: AssistantPart[] = [
    { type: 'tool-call', toolCallId: item.id, toolName: item.name, input: argumentsOf(item.arguments), providerExecuted: true, ...(providerOptions ? { providerOptions } : {}) },
  ];
  if (item.output !== undefined) {
    const value = parseJson(item.output)?.value ?? item.output;
    parts.push(
      compact({
        type: 'tool-result' as const,
        toolCallId: item.id,
        toolName: item.name,
        output: { type: item.status === 'failed' ? ('error-json' as const) : ('json' as const), value: value as never },
        providerOptions,
      }),
    );
  }
  return parts;
}

/** Content this adapter kept as an `unknown` item (a generated file, custom or reasoning-file content), when the spec can carry it back. */
function storedPart(item: UnknownItem, context: PromptContext): AssistantPart | undefined {
  const data = item.providerData;
  if (!isRecord(data) || typeof data.model !== 'string' || !isFromModel(data, context.model) || !isRecord(data.aiSdkContent)) return undefined;
  const stored = data.aiSdkContent as StoredContent;
  const providerOptions = providerOptionsOf(data);
  if (stored.type === 'file') {
    if (context.spec !== 'v4') return compact({ type: 'file' as const, mediaType: stored.mediaType, data: stored.data.type === 'url' ? new URL(stored.data.url) : stored.data.data, providerOptions });
    return compact({ type: 'file' as const, mediaType: stored.mediaType, data: v4Data(stored.data), providerOptions });
  }
  if (context.spec !== 'v4') return undefined;
  if (stored.type === 'reasoning-file') return compact({ type: 'reasoning-file' as const, mediaType: stored.mediaType, data: v4Data(stored.data), providerOptions });
  if (stored.type === 'custom') return compact({ type: 'custom' as const, kind: stored.kind, providerOptions });
  return undefined;
}

function v4Data(data: StoredFileData) {
  return data.type === 'url' ? { type: 'url' as const, url: new URL(data.url) } : { type: 'data' as const, data: data.data };
}

function userParts(content: string | UserContent[], context: PromptContext): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part): UserPart => {
    const providerOptions = optionsOf(context, part.providerData);
    const explicit = isRecord(part.providerData) ? part.providerData.mediaType : undefined;
    switch (part.type) {
      case 'input_text':
        return compact({ type: 'text' as const, text: part.text, providerOptions });
      case 'input_image': {
        const source = fileSourceOf(part.image, 'An input_image part', false);
        const mediaType = mediaTypeOf(source, { explicit, image: true, spec: context.spec, what: 'An input_image part' });
        return filePart(source, mediaType, undefined, providerOptions, context);
      }
      case 'input_file': {
        const source = fileSourceOf(part.file, 'An input_file part', true);
        const mediaType = mediaTypeOf(source, { explicit, filename: part.filename, image: false, spec: context.spec, what: 'An input_file part' });
        return filePart(source, mediaType, part.filename, providerOptions, context);
      }
      default:
        throw new UserError(`Unsupported user content part: ${JSON.stringify(part).slice(0, 200)}.`);
    }
  });
}

function filePart(
  source: ReturnType<typeof fileSourceOf>,
  mediaType: string,
  filename: string | undefined,
  providerOptions: SharedV4ProviderOptions | undefined,
  context: PromptContext,
): FilePart {
  if (context.spec !== 'v4') {
    if (source.kind === 'reference') {
      throw new UserError(`A provider file id ({ id: ${JSON.stringify(source.id)} }) needs an AI SDK 7 (v4) model; ${context.spec} models take file data or a URL.`);
    }
    return compact({ type: 'file' as const, data: source.kind === 'url' ? source.url : source.data, mediaType, filename, providerOptions });
  }
  const data =
    source.kind === 'data'
      ? { type: 'data' as const, data: source.data }
      : source.kind === 'url'
        ? { type: 'url' as const, url: source.url }
        : { type: 'reference' as const, reference: { [referenceKey(context.model.provider)]: source.id } };
  return compact({ type: 'file' as const, data, mediaType, filename, providerOptions });
}
