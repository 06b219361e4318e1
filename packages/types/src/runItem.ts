import type {
  AgentInputItem,
  AssistantMessageItem,
  CompactionItem,
  FunctionCallItem,
  FunctionCallResultItem,
  HostedToolCallItem,
  ReasoningItem,
  ToolSearchCallItem,
  ToolSearchOutputItem,
} from './protocol.js';
import type { AgentRef, RegisteredAgent } from './registry.js';

/**
 * The id a call is approved and answered by: a function call's `callId`; a hosted call's provider
 * id (a remote MCP server's approval request id).
 */
export function toolCallIdOf(rawItem: FunctionCallItem | HostedToolCallItem): string {
  if (rawItem.type === 'function_call') return rawItem.callId;
  const providerId = (rawItem.providerData as { id?: unknown } | undefined)?.id;
  return typeof providerId === 'string' ? providerId : (rawItem.id ?? '');
}

function jsonSafe(value: unknown): unknown {
  try {
    JSON.stringify(value);
    return value;
  } catch {
    return String(value);
  }
}

/** Agents appear in JSON by name only. */
function agentJson(agent: AgentRef): { name: string } {
  return { name: agent.name };
}

abstract class RunItemBase<TRaw> {
  abstract readonly type: string;
  constructor(
    public readonly rawItem: TRaw,
    public readonly agent: RegisteredAgent,
  ) {}

  toJSON(): { type: string; rawItem: TRaw; agent: { name: string } } {
    return { type: this.type, rawItem: this.rawItem, agent: agentJson(this.agent as AgentRef) };
  }
}

/** An assistant message produced by the model. */
export class RunMessageOutputItem extends RunItemBase<AssistantMessageItem> {
  readonly type = 'message_output_item' as const;

  /** The message's text (output_text parts joined). */
  get content(): string {
    let text = '';
    for (const part of this.rawItem.content) if (part.type === 'output_text') text += part.text;
    return text;
  }
}

/**
 * A function call the model made, or a hosted tool's call the provider ran. A program the model ran
 * (Programmatic Tool Calling, `type: 'program'`) is one too, and its `program_output` a
 * `RunToolCallOutputItem`, as in the reference.
 */
export class RunToolCallItem extends RunItemBase<FunctionCallItem | HostedToolCallItem> {
  readonly type = 'tool_call_item' as const;
}

/** The output of a tool call; `output` is the tool's raw return value. */
export class RunToolCallOutputItem extends RunItemBase<FunctionCallResultItem> {
  readonly type = 'tool_call_output_item' as const;
  /**
   * The error the tool threw when its error function answered the model instead (the model sees
   * only that answer, never this). Set by the runner; not enumerable and not in `toJSON()`: it
   * stays in this process.
   */
  declare readonly error?: unknown;
  constructor(
    rawItem: FunctionCallResultItem,
    agent: RegisteredAgent,
    public readonly output: unknown,
  ) {
    super(rawItem, agent);
  }

  /** The raw output when JSON can carry it, else its text (so serializing a state never throws). */
  override toJSON() {
    return { ...super.toJSON(), output: jsonSafe(this.output) };
  }
}

export class RunReasoningItem extends RunItemBase<ReasoningItem> {
  readonly type = 'reasoning_item' as const;
}

/**
 * A tool search the model asked for (`tool_search_call`): run by the provider, or by the SDK when
 * the agent's `toolSearchTool` executes on the client. Its own item (not a tool call) because its
 * payload and how a UI pairs it with its output differ from a function call's.
 */
export class RunToolSearchCallItem extends RunItemBase<ToolSearchCallItem> {
  readonly type = 'tool_search_call_item' as const;
}

/** What a tool search loaded (`tool_search_output`): the provider's answer, or the client executor's. */
export class RunToolSearchOutputItem extends RunItemBase<ToolSearchOutputItem> {
  readonly type = 'tool_search_output_item' as const;
}

/** A compaction marker a model returned (`compaction`): the compacted history, as an opaque payload kept in history. */
export class RunCompactionItem extends RunItemBase<CompactionItem> {
  readonly type = 'compaction_item' as const;
}

/**
 * Input added to a paused run with `state.addInput(...)`, admitted into the history right before
 * the next model call (it reaches the model, `history` and the session, not `output`).
 */
export class RunInputItem extends RunItemBase<AgentInputItem> {
  readonly type = 'input_item' as const;
  constructor(
    rawItem: AgentInputItem,
    agent: RegisteredAgent,
    /** Identifies this admitted input across serialization. */
    public readonly inputId: string = globalThis.crypto.randomUUID(),
  ) {
    super(rawItem, agent);
  }

  override toJSON() {
    return { ...super.toJSON(), inputId: this.inputId };
  }
}

/** The model asked to hand off to another agent. */
export class RunHandoffCallItem extends RunItemBase<FunctionCallItem> {
  readonly type = 'handoff_call_item' as const;
}

/** A handoff that happened: the transfer message sent back as the tool output. */
export class RunHandoffOutputItem extends RunItemBase<FunctionCallResultItem> {
  readonly type = 'handoff_output_item' as const;
  constructor(
    rawItem: FunctionCallResultItem,
    public readonly sourceAgent: RegisteredAgent,
    public readonly targetAgent: RegisteredAgent,
  ) {
    super(rawItem, sourceAgent);
  }

  override toJSON() {
    return {
      ...super.toJSON(),
      sourceAgent: agentJson(this.sourceAgent as AgentRef),
      targetAgent: agentJson(this.targetAgent as AgentRef),
    };
  }
}

/** A tool call waiting for a human decision: a function call, or a hosted MCP server's approval request. */
export class RunToolApprovalItem extends RunItemBase<FunctionCallItem | HostedToolCallItem> {
  readonly type = 'tool_approval_item' as const;
  constructor(
    rawItem: FunctionCallItem | HostedToolCallItem,
    agent: RegisteredAgent,
    /** The tool's name as the runner knows it (defaults to the call's name). */
    public readonly toolName: string = rawItem.name,
  ) {
    super(rawItem, agent);
  }

  get name(): string {
    return this.rawItem.name;
  }

  /** The call's JSON arguments (a hosted MCP approval request keeps them in `rawItem.providerData.arguments`). */
  get arguments(): string | undefined {
    return this.rawItem.arguments;
  }

  /** The id the call is approved by (`toolCallIdOf`). */
  get callId(): string {
    return toolCallIdOf(this.rawItem);
  }

  override toJSON() {
    return { ...super.toJSON(), toolName: this.toolName };
  }
}

export type RunItem =
  | RunMessageOutputItem
  | RunToolCallItem
  | RunToolCallOutputItem
  | RunReasoningItem
  | RunToolSearchCallItem
  | RunToolSearchOutputItem
  | RunCompactionItem
  | RunInputItem
  | RunHandoffCallItem
  | RunHandoffOutputItem
  | RunToolApprovalItem;

export type RunItemType = RunItem['type'];
