import type {
  AgentInputItem,
  ApplyPatchCallItem,
  ApplyPatchCallResultItem,
  AssistantMessageItem,
  ComputerCallResultItem,
  ComputerUseCallItem,
  CompactionItem,
  FunctionCallItem,
  FunctionCallResultItem,
  HostedToolCallItem,
  ProgramCallItem,
  ReasoningItem,
  ShellCallItem,
  ShellCallResultItem,
  ToolSearchCallItem,
  ToolSearchOutputItem,
} from './protocol.js';
import type { AgentRef, RegisteredAgent } from './registry.js';
import type { ToolOutputCustomData } from './toolOutputCustomData.js';
import { functionToolStateKeyOf } from './functionToolStateKey.js';

/** A call of a local tool the SDK runs: the shell, apply-patch and computer tools. */
export type LocalToolCallItem = ShellCallItem | ApplyPatchCallItem | ComputerUseCallItem;

/** The output of a local tool's call. */
export type LocalToolCallResultItem = ShellCallResultItem | ApplyPatchCallResultItem | ComputerCallResultItem;

/** Any tool call a run item carries (a Programmatic Tool Calling program included). */
export type ToolCallRawItem = FunctionCallItem | HostedToolCallItem | LocalToolCallItem | ProgramCallItem;

/**
 * The id a call is approved and answered by: a function call's `callId`; a hosted call's provider
 * id (a remote MCP server's approval request id).
 */
export function toolCallIdOf(rawItem: ToolCallRawItem): string {
  if (rawItem.type !== 'hosted_tool_call') return rawItem.callId;
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

function nonEmptyField(item: object, key: string): string | undefined {
  const value = (item as Record<string, unknown>)[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
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

  /** The item as plain data; `agent` is left out only where another field names it (a handoff's `sourceAgent`). */
  toJSON(): { type: string; rawItem: TRaw; agent?: { name: string } } {
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
 * A function call the model made, a hosted tool's call the provider ran, or a local tool's call
 * (shell, apply-patch, computer). A program the model ran (Programmatic Tool Calling,
 * `type: 'program'`) is one too, and its `program_output` a `RunToolCallOutputItem`, as in the reference.
 */
export class RunToolCallItem extends RunItemBase<ToolCallRawItem> {
  readonly type = 'tool_call_item' as const;

  /** The called tool's name, when the call names one (a shell or computer call does not). */
  get toolName(): string | undefined {
    return nonEmptyField(this.rawItem, 'name');
  }

  /** The call's id: its `callId`, else the item's own id. */
  get callId(): string | undefined {
    return nonEmptyField(this.rawItem, 'callId') ?? nonEmptyField(this.rawItem, 'id');
  }
}

/** The output of a tool call; `output` is the tool's raw return value. */
export class RunToolCallOutputItem extends RunItemBase<FunctionCallResultItem | LocalToolCallResultItem> {
  readonly type = 'tool_call_output_item' as const;
  /**
   * The error the tool threw when its error function answered the model instead (the model sees
   * only that answer, never this). Set by the runner; not enumerable and not in `toJSON()`: it
   * stays in this process.
   */
  declare readonly error?: unknown;
  /**
   * Data of your own the tool's `customDataExtractor` attached (never sent to the model). Kept in
   * the serialized state. Set only when there is some, so items without it cost nothing more.
   */
  declare readonly customData?: ToolOutputCustomData | undefined;
  constructor(
    rawItem: FunctionCallResultItem | LocalToolCallResultItem,
    agent: RegisteredAgent,
    public readonly output: unknown,
    customData?: ToolOutputCustomData | undefined,
  ) {
    super(rawItem, agent);
    if (customData !== undefined) (this as { customData?: ToolOutputCustomData }).customData = customData;
  }

  /** The id of the call this answers: its `callId`, else the item's own id. */
  get callId(): string | undefined {
    return nonEmptyField(this.rawItem, 'callId') ?? nonEmptyField(this.rawItem, 'id');
  }

  /** The raw output when JSON can carry it, else its text (so serializing a state never throws). */
  override toJSON() {
    const json = { ...super.toJSON(), output: jsonSafe(this.output) };
    return this.customData === undefined ? json : { ...json, customData: this.customData };
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

  /** The two agents of the handoff; `agent` (the source) is not repeated, as on the reference. */
  override toJSON() {
    return {
      type: this.type,
      rawItem: this.rawItem,
      sourceAgent: agentJson(this.sourceAgent as AgentRef),
      targetAgent: agentJson(this.targetAgent as AgentRef),
    };
  }
}

/**
 * A tool call waiting for a human decision: a function call, a hosted MCP server's approval
 * request, or a local tool's call (a shell command, a patch, a computer action).
 */
export class RunToolApprovalItem extends RunItemBase<ToolCallRawItem> {
  readonly type = 'tool_approval_item' as const;
  /** The tool's name as the runner knows it (defaults to the call's name; a local tool's call carries none). */
  public readonly toolName: string;
  constructor(rawItem: ToolCallRawItem, agent: RegisteredAgent, toolName?: string) {
    super(rawItem, agent);
    this.toolName = toolName ?? ('name' in rawItem && typeof rawItem.name === 'string' ? rawItem.name : rawItem.type);
  }

  /** The call's name; a local tool's call is named after its tool. */
  get name(): string {
    return 'name' in this.rawItem && typeof this.rawItem.name === 'string' ? this.rawItem.name : this.toolName;
  }

  /**
   * The call's JSON arguments (a hosted MCP approval request keeps them in
   * `rawItem.providerData.arguments`). A local tool's call has none, as on the reference: what it
   * will do is in `rawItem` (`action.commands`, `operation`, `action` / `actions`).
   */
  get arguments(): string | undefined {
    return 'arguments' in this.rawItem ? this.rawItem.arguments : undefined;
  }

  /** The id the call is approved by (`toolCallIdOf`). */
  get callId(): string {
    return toolCallIdOf(this.rawItem);
  }

  /**
   * The key a function call's tool is known by in approval and resume state
   * (`["bare","pay"]`, `["namespaced","crm","lookup"]`); `undefined` for any other call.
   */
  get functionToolStateKey(): string | undefined {
    return this.rawItem.type === 'function_call' ? functionToolStateKeyOf(this.rawItem) : undefined;
  }

  override toJSON() {
    const key = this.functionToolStateKey;
    return { ...super.toJSON(), toolName: this.toolName, ...(key === undefined ? {} : { functionToolStateKey: key }) };
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
