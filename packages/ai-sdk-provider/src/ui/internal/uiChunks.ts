import type { RunStreamEvent } from '@baton/types';
import type { AiSdkToolProgress, AiSdkUiMessageChunk } from '../uiMessageChunk.js';
import { chunkId, toolCallIdOf, toolInputOf, toolNameOf } from './toolPayloads.js';
import { ToolSearchChunks } from './toolSearchChunks.js';

type Raw = Record<string, unknown>;
type Chunks = Generator<AiSdkUiMessageChunk>;

/**
 * Run stream events as UI message chunks, one assistant message for the whole run: each model
 * response is a step; text deltas stream as text parts (a finished message whose text was not
 * streamed is sent whole); reasoning, tool calls and their outputs (handoffs and tool searches too) as their parts;
 * approvals as `tool-approval-request` (after the call's input, so the UI has the tool part to ask
 * on); a streaming tool's progress and the text of an agent used as a tool as one
 * `data-tool-progress` part per call (never part of the message's history); a failed run as an
 * `error` chunk. Pulled one event at a time, so a slow reader slows the run.
 */
export async function* uiChunksOf(events: AsyncIterable<RunStreamEvent>, options: { readonly messageId?: string } = {}): AsyncGenerator<AiSdkUiMessageChunk> {
  const mapper = new UiChunkMapper(options.messageId ?? chunkId('message'));
  try {
    for await (const event of events) yield* mapper.event(event);
  } catch (error) {
    yield* mapper.fail(error);
    return;
  }
  yield* mapper.end();
}

class UiChunkMapper {
  readonly #messageId: string;
  #messageStarted = false;
  #stepOpen = false;
  #closeStepAfterMessage = false;
  #stepHasText = false;
  #responseHasText = false;
  #responseHasUnkeyedText = false;
  #textOpen = false;
  #textId = '';
  readonly #streamedTextIds = new Set<string>();
  readonly #startedCalls = new Set<string>();
  readonly #finishedCalls = new Set<string>();
  readonly #searches = new ToolSearchChunks();
  readonly #progress = new Map<string, { toolName: string; status: AiSdkToolProgress['status']; text: string; notes: Array<{ data: unknown; tag?: string }> }>();

  constructor(messageId: string) {
    this.#messageId = messageId;
  }

  *event(event: RunStreamEvent): Chunks {
    switch (event.type) {
      case 'raw_model_stream_event':
        yield* this.#model(event.data as unknown as Raw);
        return;
      case 'run_item_stream_event':
        yield* this.#item(event.name, event.item as unknown as { rawItem: Raw; output?: unknown; content?: string; toolName?: string });
        return;
      case 'streaming_tool_context_event':
        yield* this.#nested(event.toolName, event.toolCallId, event.internalEvent as unknown as Raw);
        return;
      case 'notify_stream_event':
        yield* this.#updateProgress(event.toolCallId, event.toolName, (entry) => entry.notes.push(event.tag === undefined ? { data: event.data } : { data: event.data, tag: event.tag }));
        return;
      case 'tool_stream_start_event':
        yield* this.#updateProgress(event.toolCallId, event.toolName, (entry) => (entry.status = 'running'));
        return;
      case 'tool_stream_end_event':
        yield* this.#updateProgress(event.toolCallId, event.toolName, (entry) => (entry.status = event.interrupted ? 'interrupted' : event.error ? 'failed' : 'done'));
        return;
      default:
        return;
    }
  }

  *end(): Chunks {
    yield* this.#closeText();
    yield* this.#finishStep();
    yield { type: 'finish', finishReason: 'stop' };
  }

  /** A run that failed: its message, as the protocol's `error` chunk (the UI shows it; the chat's status becomes `error`). */
  *fail(error: unknown): Chunks {
    yield* this.#start();
    yield* this.#closeText();
    yield* this.#finishStep();
    yield { type: 'error', errorText: error instanceof Error ? error.message : String(error) };
  }

  *#start(): Chunks {
    if (this.#messageStarted) return;
    this.#messageStarted = true;
    yield { type: 'start', messageId: this.#messageId };
  }

  *#startStep(): Chunks {
    if (this.#stepOpen) return;
    this.#stepOpen = true;
    this.#closeStepAfterMessage = false;
    this.#stepHasText = false;
    yield { type: 'start-step' };
  }

  *#finishStep(): Chunks {
    if (!this.#stepOpen) return;
    this.#stepOpen = false;
    this.#closeStepAfterMessage = false;
    yield { type: 'finish-step' };
  }

  *#closeText(): Chunks {
    if (!this.#textOpen) return;
    this.#textOpen = false;
    yield { type: 'text-end', id: this.#textId };
  }

  *#model(data: Raw): Chunks {
    if (data.type === 'response_started') {
      yield* this.#start();
      // The previous response's step (tool calls, no text) waited for a message that never came: a new response closes it.
      if (this.#closeStepAfterMessage) yield* this.#finishStep();
      this.#responseHasText = false;
      this.#responseHasUnkeyedText = false;
      this.#streamedTextIds.clear();
      this.#textId = '';
      yield* this.#startStep();
    } else if (data.type === 'output_text_delta') {
      yield* this.#start();
      yield* this.#startStep();
      this.#responseHasText = true;
      this.#stepHasText = true;
      const itemId = typeof data.itemId === 'string' && data.itemId !== '' ? data.itemId : undefined;
      if (itemId !== undefined) this.#streamedTextIds.add(itemId);
      else this.#responseHasUnkeyedText = true;
      const id = itemId ?? (this.#textId || chunkId('text'));
      if (this.#textOpen && this.#textId !== id) yield* this.#closeText();
      if (!this.#textOpen) {
        this.#textId = id;
        this.#textOpen = true;
        yield { type: 'text-start', id };
      }
      yield { type: 'text-delta', id, delta: String(data.delta) };
    } else if (data.type === 'response_done') {
      yield* this.#closeText();
      // A step without text stays open until its message item arrives (or the run ends).
      if (this.#stepOpen) {
        if (this.#stepHasText) yield* this.#finishStep();
        else this.#closeStepAfterMessage = true;
      }
    }
  }

  *#item(name: string, item: { rawItem: Raw; output?: unknown; content?: string; toolName?: string }): Chunks {
    yield* this.#start();
    const raw = item.rawItem ?? {};
    switch (name) {
      case 'message_output_created': {
        const id = typeof raw.id === 'string' ? raw.id : undefined;
        const streamed = this.#responseHasUnkeyedText || (id !== undefined && this.#streamedTextIds.has(id));
        if (!this.#responseHasText || !streamed) {
          yield* this.#startStep();
          const text = typeof item.content === 'string' ? item.content : '';
          if (text !== '') {
            const textId = id ?? chunkId('text');
            yield { type: 'text-start', id: textId };
            yield { type: 'text-delta', id: textId, delta: text };
            yield { type: 'text-end', id: textId };
            this.#stepHasText = true;
            this.#responseHasText = true;
          }
        }
        if (this.#closeStepAfterMessage) yield* this.#finishStep();
        return;
      }
      case 'tool_called':
      case 'handoff_requested': {
        const input = toolInputOf(raw);
        if (input !== undefined) yield* this.#toolInput(input);
        // A hosted tool the provider ran may arrive with its output already.
        if (raw.type === 'hosted_tool_call' && raw.status === 'completed' && raw.output !== undefined) {
          yield* this.#toolOutput(input?.toolCallId ?? toolCallIdOf(raw, toolNameOf(raw)), raw.output);
        }
        return;
      }
      case 'tool_output':
      case 'handoff_occurred': {
        const callId = (typeof raw.callId === 'string' && raw.callId) || (typeof raw.id === 'string' && raw.id);
        if (!callId) return;
        yield* this.#toolOutput(callId, item.output !== undefined ? item.output : raw.output);
        return;
      }
      case 'tool_approval_requested': {
        const toolName = item.toolName ?? toolNameOf(raw);
        const toolCallId = (typeof raw.callId === 'string' && raw.callId) || (typeof raw.id === 'string' && raw.id) || `${toolName}-${chunkId('call')}`;
        const input = toolInputOf({ ...raw, callId: toolCallId });
        if (input !== undefined && !this.#startedCalls.has(toolCallId)) yield* this.#toolInput({ ...input, toolCallId });
        yield { type: 'tool-approval-request', toolCallId, approvalId: (typeof raw.id === 'string' && raw.id) || toolCallId };
        return;
      }
      case 'tool_search_called':
        yield* this.#toolInput(this.#searches.call(raw));
        return;
      case 'tool_search_output_created': {
        // Every output is sent: a later one for the same search replaces what the UI shows.
        const { toolCallId, output } = this.#searches.output(raw);
        this.#finishedCalls.add(toolCallId);
        yield { type: 'tool-output-available', toolCallId, output, dynamic: true };
        return;
      }
      case 'reasoning_item_created': {
        const content = Array.isArray(raw.content) ? (raw.content as Raw[]) : [];
        const text = content.map((part) => (part.type === 'input_text' ? String(part.text) : '')).join('');
        if (text === '') return;
        const id = chunkId('reasoning');
        yield { type: 'reasoning-start', id };
        yield { type: 'reasoning-delta', id, delta: text };
        yield { type: 'reasoning-end', id };
        return;
      }
      default:
        return;
    }
  }

  *#toolInput(input: { toolCallId: string; toolName: string; input: unknown }): Chunks {
    if (!this.#startedCalls.has(input.toolCallId)) {
      this.#startedCalls.add(input.toolCallId);
      yield { type: 'tool-input-start', toolCallId: input.toolCallId, toolName: input.toolName, dynamic: true };
    }
    yield { type: 'tool-input-available', toolCallId: input.toolCallId, toolName: input.toolName, input: input.input, dynamic: true };
  }

  *#toolOutput(toolCallId: string, output: unknown): Chunks {
    if (this.#finishedCalls.has(toolCallId)) return;
    this.#finishedCalls.add(toolCallId);
    yield { type: 'tool-output-available', toolCallId, output, dynamic: true };
  }

  /** An event of an agent used as a tool (or any streaming tool's nested run): its text accumulates in the call's progress part. */
  *#nested(toolName: string, toolCallId: string, inner: Raw): Chunks {
    if (inner.type === 'streaming_tool_context_event') {
      yield* this.#nested(String(inner.toolName), String(inner.toolCallId), inner.internalEvent as Raw);
      return;
    }
    const data = inner.type === 'raw_model_stream_event' && typeof inner.data === 'object' && inner.data !== null ? (inner.data as Raw) : undefined;
    if (data?.type !== 'output_text_delta' || typeof data.delta !== 'string') return;
    const delta = data.delta;
    yield* this.#updateProgress(toolCallId, toolName, (entry) => (entry.text += delta));
  }

  *#updateProgress(toolCallId: string, toolName: string, update: (entry: { toolName: string; status: AiSdkToolProgress['status']; text: string; notes: Array<{ data: unknown; tag?: string }> }) => void): Chunks {
    yield* this.#start();
    let entry = this.#progress.get(toolCallId);
    if (entry === undefined) {
      entry = { toolName, status: 'running', text: '', notes: [] };
      this.#progress.set(toolCallId, entry);
    }
    update(entry);
    const data: AiSdkToolProgress = { toolCallId, toolName: entry.toolName, status: entry.status, text: entry.text, notes: [...entry.notes] };
    yield { type: 'data-tool-progress', id: `progress-${toolCallId}`, data };
  }
}
