import type { LanguageModelV3StreamPart, LanguageModelV4StreamPart, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import { blockOf, inputText, type Block, type ContentPart } from './content.js';
import { mergeMetadata } from './providerData.js';

export type StreamPart = LanguageModelV4StreamPart | LanguageModelV3StreamPart;
type FinishPart = Extract<StreamPart, { type: 'finish' }>;
type TextBlock = Extract<Block, { kind: 'text' }>;
type ReasoningBlock = Extract<Block, { kind: 'reasoning' }>;
type ToolCallBlock = Extract<Block, { kind: 'tool-call' }>;

interface ToolInput {
  readonly block: ToolCallBlock;
  /** v4: `text` deltas concatenate to a raw string, which a call must carry JSON-encoded. */
  readonly encoding: 'json' | 'text';
  /** The final `tool-call` part arrived (its input replaces the deltas). */
  final: boolean;
}

/**
 * Assembles stream parts into the same blocks `doGenerate` content gives: text and reasoning from
 * their `-start` / `-delta` / `-end` parts (provider metadata merged from all three, since a
 * signature may arrive on any), tool calls from `tool-input-*` deltas or the final `tool-call`
 * part (which wins), and every other content part as it is. Also keeps the response metadata,
 * warnings and the `finish` part.
 */
export class StreamAssembler {
  readonly #blocks: Block[] = [];
  readonly #text = new Map<string, TextBlock>();
  readonly #reasoning = new Map<string, ReasoningBlock>();
  readonly #toolInputs = new Map<string, ToolInput>();
  readonly #toolCalls = new Map<string, ToolCallBlock>();
  responseId: string | undefined;
  modelId: string | undefined;
  timestamp: Date | undefined;
  warnings: readonly unknown[] | undefined;
  finish: FinishPart | undefined;
  /** The spec's `stream-start` part arrived (every AI SDK provider package opens its streams with it). */
  announced = false;
  /** The id of the first text part of the current run of text (the message the deltas belong to); a tool call or non-empty reasoning ends the run. */
  textItemId: string | undefined;
  #inTextRun = false;

  /** Takes one part; returns the text delta it carried, if any. */
  add(part: StreamPart): string | undefined {
    switch (part.type) {
      case 'text-start':
        this.#open(this.#text, part.id, { kind: 'text', text: '', id: part.id, metadata: part.providerMetadata });
        return undefined;
      case 'text-delta': {
        const block = this.#text.get(part.id) ?? this.#open(this.#text, part.id, { kind: 'text', text: '', id: part.id });
        if (!this.#inTextRun) {
          this.#inTextRun = true;
          this.textItemId = part.id;
        }
        block.text += part.delta;
        block.metadata = mergeMetadata(block.metadata, part.providerMetadata);
        return part.delta === '' ? undefined : part.delta;
      }
      case 'text-end': {
        const block = this.#text.get(part.id) ?? (part.providerMetadata ? this.#open(this.#text, part.id, { kind: 'text', text: '' }) : undefined);
        if (block !== undefined) {
          block.metadata = mergeMetadata(block.metadata, part.providerMetadata);
          if ('citations' in part && part.citations !== undefined) block.citations = [...(block.citations ?? []), ...part.citations];
        }
        this.#text.delete(part.id);
        return undefined;
      }
      case 'reasoning-start':
        this.#open(this.#reasoning, part.id, { kind: 'reasoning', text: '', ...reasoningId(part.id), metadata: part.providerMetadata });
        return undefined;
      case 'reasoning-delta': {
        const block = this.#reasoning.get(part.id) ?? this.#open(this.#reasoning, part.id, { kind: 'reasoning', text: '', ...reasoningId(part.id) });
        block.text += part.delta;
        block.metadata = mergeMetadata(block.metadata, part.providerMetadata);
        if (block.text !== '' || block.metadata !== undefined) this.#endTextRun();
        return undefined;
      }
      case 'reasoning-end': {
        const block = this.#reasoning.get(part.id) ?? (part.providerMetadata ? this.#open(this.#reasoning, part.id, { kind: 'reasoning', text: '', ...reasoningId(part.id) }) : undefined);
        if (block !== undefined) block.metadata = mergeMetadata(block.metadata, part.providerMetadata);
        if (block !== undefined && (block.text !== '' || block.metadata !== undefined)) this.#endTextRun();
        this.#reasoning.delete(part.id);
        return undefined;
      }
      case 'tool-input-start': {
        this.#endTextRun();
        const block: ToolCallBlock = { kind: 'tool-call', toolCallId: part.id, toolName: part.toolName, input: '', providerExecuted: part.providerExecuted, metadata: part.providerMetadata };
        this.#blocks.push(block);
        this.#toolInputs.set(part.id, { block, encoding: 'inputEncoding' in part && part.inputEncoding === 'text' ? 'text' : 'json', final: false });
        return undefined;
      }
      case 'tool-input-delta': {
        const entry = this.#toolInputs.get(part.id);
        if (entry !== undefined && !entry.final) entry.block.input += part.delta;
        if (entry !== undefined) entry.block.metadata = mergeMetadata(entry.block.metadata, part.providerMetadata);
        return undefined;
      }
      case 'tool-input-end': {
        const entry = this.#toolInputs.get(part.id);
        if (entry !== undefined) entry.block.metadata = mergeMetadata(entry.block.metadata, part.providerMetadata);
        return undefined;
      }
      case 'tool-call': {
        const entry = this.#toolInputs.get(part.toolCallId);
        const earlier = this.#toolCalls.get(part.toolCallId);
        if (entry === undefined && earlier !== undefined) {
          // The same call sent again replaces the earlier one in place (it does not split the text around it).
          Object.assign(earlier, blockOf(part));
          return undefined;
        }
        this.#endTextRun();
        if (entry === undefined) {
          const block = blockOf(part) as ToolCallBlock;
          this.#toolCalls.set(part.toolCallId, block);
          this.#blocks.push(block);
          return undefined;
        }
        entry.final = true;
        entry.block.input = inputText(part.input);
        entry.block.toolName = part.toolName;
        entry.block.providerExecuted = part.providerExecuted ?? entry.block.providerExecuted;
        entry.block.metadata = mergeMetadata(entry.block.metadata, part.providerMetadata);
        return undefined;
      }
      case 'response-metadata':
        this.responseId = part.id ?? this.responseId;
        this.modelId = part.modelId ?? this.modelId;
        this.timestamp = part.timestamp ?? this.timestamp;
        return undefined;
      case 'stream-start':
        this.announced = true;
        this.warnings = part.warnings;
        return undefined;
      case 'finish':
        this.finish = part;
        return undefined;
      case 'raw':
      case 'error':
      case 'ping':
        return undefined;
      default:
        // Content parts (tool results, files, sources, custom, approval requests) arrive whole.
        this.#blocks.push(blockOf(part as ContentPart));
        return undefined;
    }
  }

  /** The blocks so far; tool inputs that never got their final `tool-call` part are taken from their deltas. */
  blocks(): Block[] {
    for (const entry of this.#toolInputs.values()) {
      if (!entry.final && entry.encoding === 'text') entry.block.input = JSON.stringify(entry.block.input);
      entry.final = true;
    }
    return this.#blocks;
  }

  #endTextRun(): void {
    this.#inTextRun = false;
    this.textItemId = undefined;
  }

  #open<B extends TextBlock | ReasoningBlock>(open: Map<string, B>, id: string, block: B & { metadata?: SharedV4ProviderMetadata | undefined }): B {
    this.#blocks.push(block);
    open.set(id, block);
    return block;
  }
}

/** A stream's reasoning part id, kept on the reasoning item (a missing id reads as the reference's `'default'`, which is no id). */
function reasoningId(id: string | undefined): { id?: string } {
  return id === undefined || id === 'default' ? {} : { id };
}
