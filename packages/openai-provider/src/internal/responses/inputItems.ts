import {
  UserError,
  type AgentInputItem,
  type AssistantContent,
  type FunctionCallResultOutput,
  type ReasoningItem,
  type ToolOutputImage,
  type ToolOutputText,
  type UserContent,
} from '@baton/types';
import { compact, isRecord, providerFields, type Json } from '../json.js';
import { hostedCallToInput } from './hostedCalls.js';
import { callerField, isToolItem, toolItemToInput } from './toolItems.js';

/** Protocol items to Responses API `input` items. */
export function toResponsesInput(input: string | AgentInputItem[]): Json[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const out: Json[] = [];
  for (const item of input) {
    const converted = toInputItem(item);
    // `created_by` is output-only: the API rejects it in input.
    if (converted !== undefined) out.push(Object.hasOwn(converted, 'created_by') ? withoutKey(converted, 'created_by') : converted);
  }
  return out;
}

function withoutKey(item: Json, key: string): Json {
  const { [key]: _dropped, ...rest } = item;
  return rest;
}

function toInputItem(item: AgentInputItem): Json | undefined {
  if (isToolItem(item)) return toolItemToInput(item);
  if (item.type === undefined || item.type === 'message') {
    switch (item.role) {
      // System and user messages go without `type`, assistant ones with it: as the reference sends them.
      // Each item also carries its providerData back (snake_cased), as the reference sends it.
      case 'system':
        return compact({ id: item.id, role: 'system', content: item.content, ...providerFields(item.providerData, ['id', 'role', 'content', 'phase']) });
      case 'user':
        return compact({
          id: item.id,
          role: 'user',
          content: typeof item.content === 'string' ? item.content : item.content.map(userContent),
          ...providerFields(item.providerData, ['id', 'role', 'content', 'phase']),
        });
      case 'assistant': {
        const phase = item.phase ?? (isRecord(item.providerData) ? item.providerData.phase : undefined);
        if (phase !== undefined && phase !== 'commentary' && phase !== 'final_answer') {
          throw new UserError(`Invalid assistant message phase: ${JSON.stringify(phase)}. Expected "commentary" or "final_answer".`);
        }
        return compact({
          type: 'message',
          id: item.id,
          role: 'assistant',
          status: item.status,
          content: item.content.map(assistantContent),
          phase,
          ...providerFields(item.providerData, ['type', 'id', 'role', 'content', 'status', 'phase']),
        });
      }
      default:
        throw new UserError(`Unsupported message role in input: ${JSON.stringify((item as { role?: unknown }).role)}.`);
    }
  }
  switch (item.type) {
    case 'function_call':
      return compact({
        type: 'function_call',
        id: item.id,
        call_id: item.callId,
        name: item.name,
        arguments: item.arguments,
        status: item.status,
        ...callerField(item.caller),
        namespace: item.namespace,
        ...providerFields(item.providerData, ['id', 'type', 'name', 'call_id', 'arguments', 'status', 'namespace', 'caller']),
      });
    case 'function_call_result':
      return compact({
        type: 'function_call_output',
        id: item.id,
        call_id: item.callId,
        output: toolOutput(item.output),
        status: item.status,
        ...callerField(item.caller),
        ...providerFields(item.providerData, ['type', 'id', 'call_id', 'output', 'status', 'namespace', 'caller']),
      });
    case 'reasoning':
      return reasoningItem(item);
    case 'hosted_tool_call':
      return hostedCallToInput(item);
    case 'unknown':
      // A provider item Baton does not model (for example a hosted tool call): sent back as it came.
      return compact({ ...(isRecord(item.providerData) ? item.providerData : {}), id: item.id });
    default:
      throw new UserError(`Unsupported input item for the Responses API: ${JSON.stringify(item)}.`);
  }
}

export function userContent(part: UserContent): Json {
  const converted = userContentPart(part);
  // A prompt-cache breakpoint on a part, as the reference sends it.
  const breakpoint = part.promptCacheBreakpoint;
  return breakpoint === undefined ? converted : { ...converted, prompt_cache_breakpoint: breakpoint };
}

function userContentPart(part: UserContent): Json {
  switch (part.type) {
    case 'input_text':
      return { type: 'input_text', text: part.text, ...providerFields(part.providerData, ['type', 'text']) };
    case 'input_image': {
      const image = part.image;
      if (image === undefined) throw new UserError('An input_image part needs an `image` (a URL, a data URL or { id }).');
      const fields = providerFields(part.providerData, ['type', 'detail', 'image_url', 'file_id']);
      return typeof image === 'string'
        ? { type: 'input_image', detail: part.detail ?? 'auto', image_url: image, ...fields }
        : { type: 'input_image', detail: part.detail ?? 'auto', file_id: image.id, ...fields };
    }
    case 'input_file': {
      const file = part.file;
      if (file === undefined) throw new UserError('An input_file part needs a `file` (a data URL, a URL, { id } or { url }).');
      if (typeof file === 'string') {
        return compact({ type: 'input_file', filename: part.filename, ...(/^https?:\/\//.test(file) ? { file_url: file } : { file_data: file }) });
      }
      return compact({ type: 'input_file', filename: part.filename, ...('id' in file ? { file_id: file.id } : { file_url: file.url }) });
    }
    default:
      throw new UserError(`Unsupported user content part: ${JSON.stringify(part)}.`);
  }
}

function assistantContent(part: AssistantContent): Json {
  if (part.type === 'output_text') {
    const annotations = isRecord(part.providerData) && Array.isArray(part.providerData.annotations) ? part.providerData.annotations : [];
    return { type: 'output_text', text: part.text, annotations, ...providerFields(part.providerData, ['type', 'text', 'annotations']) };
  }
  if (part.type === 'refusal') return { type: 'refusal', refusal: part.refusal, ...providerFields(part.providerData, ['type', 'refusal']) };
  throw new UserError(`Unsupported assistant content part: ${JSON.stringify(part)}.`);
}

/** Tool output: plain text stays a string; images and part lists become input content parts. */
function toolOutput(output: FunctionCallResultOutput): string | Json[] {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map(toolOutputPart);
  if (output.type === 'text') return output.text;
  return [toolOutputPart(output)];
}

/** An image part's source on the wire: a URL (or data URL), or an uploaded file's id. */
function imageReference(image: NonNullable<ToolOutputImage['image']>): Json {
  if (typeof image === 'string') return { image_url: image };
  if ('id' in image) return { file_id: image.id };
  if ('fileId' in image) return { file_id: image.fileId };
  if ('url' in image) return { image_url: image.url };
  const base64 = typeof image.data === 'string' ? image.data : Buffer.from(image.data).toString('base64');
  return { image_url: image.mediaType ? `data:${image.mediaType};base64,${base64}` : base64 };
}

function toolOutputPart(part: UserContent | ToolOutputText | ToolOutputImage): Json {
  if (part.type === 'input_file') return userContent(part);
  if (part.type === 'text' || part.type === 'input_text') return { type: 'input_text', text: part.text };
  if (part.type === 'image' || part.type === 'input_image') {
    if (part.image === undefined) throw new UserError('An image tool output part needs an `image` (a URL, a data URL or { id }).');
    // `detail` only when the part sets one, as the reference sends it.
    const detail = (part as { detail?: unknown }).detail;
    return compact({
      type: 'input_image',
      ...imageReference(part.image),
      detail: typeof detail === 'string' ? detail : undefined,
    });
  }
  throw new UserError(`Unsupported tool output part: ${JSON.stringify(part)}.`);
}

/**
 * A reasoning item goes back with its id, summary and encrypted content. One without an id (for
 * example from Chat Completions) cannot be replayed to the Responses API and is left out.
 */
function reasoningItem(item: ReasoningItem): Json | undefined {
  if (item.id === undefined) return undefined;
  const encrypted = item.encryptedContent ?? (isRecord(item.providerData) ? item.providerData.encrypted_content : undefined);
  return compact({
    type: 'reasoning',
    id: item.id,
    summary: item.content.map((part) => ({ type: 'summary_text', text: part.text, ...providerFields(part.providerData, ['type', 'text']) })),
    encrypted_content: typeof encrypted === 'string' ? encrypted : undefined,
    ...providerFields(item.providerData, ['id', 'type', 'summary', 'encrypted_content']),
  });
}
