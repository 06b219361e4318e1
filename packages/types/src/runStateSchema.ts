import { z } from 'zod';

/**
 * The serialized run-state format. `$schemaVersion` names the format; every change to it adds a new
 * version and a migration from the previous one (see `runStateVersions.ts`), never an in-place edit
 * of a released version.
 */
export const CURRENT_RUN_STATE_SCHEMA_VERSION = '3' as const;

/** Keys that must never become property names of objects built from a serialized state. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A record key chosen by the format (tool name, call id, nested-run key): never a prototype key. */
export const PROTO_KEY_MESSAGE = 'prototype keys are not allowed here';
const SafeKey = z.string().refine((key) => !PROTOTYPE_KEYS.has(key), { message: PROTO_KEY_MESSAGE });

const providerData = z.record(z.string(), z.unknown()).optional();

type Issue = { message: string; path: PropertyKey[] };

/** Fields the loop relies on, checked per item type (other fields pass through untouched). */
function protocolItemIssues(item: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const requireString = (field: string) => {
    if (typeof item[field] !== 'string') issues.push({ message: `expected a string \`${field}\``, path: [field] });
  };
  switch (item.type) {
    case 'function_call':
      requireString('callId');
      requireString('name');
      requireString('arguments');
      break;
    case 'function_call_result':
      requireString('callId');
      requireString('name');
      if (!('output' in item)) issues.push({ message: 'expected an `output`', path: ['output'] });
      break;
    case 'reasoning':
      if (!Array.isArray(item.content)) issues.push({ message: 'expected a `content` array', path: ['content'] });
      break;
    case undefined:
    case 'message':
      if (item.role === undefined) issues.push({ message: 'a message needs a `role`', path: ['role'] });
      if (item.role === 'assistant' && !Array.isArray(item.content)) issues.push({ message: 'expected a `content` array', path: ['content'] });
      if (item.role !== 'assistant' && typeof item.content !== 'string' && !Array.isArray(item.content)) {
        issues.push({ message: 'expected `content` to be a string or an array', path: ['content'] });
      }
      break;
    default:
      break;
  }
  return issues;
}

/** Protocol items are validated on the fields the loop reads; other fields pass through. */
export const SerializedProtocolItemSchema = z
  .looseObject({
    type: z.string().optional(),
    role: z.enum(['user', 'assistant', 'system']).optional(),
    providerData,
  })
  .superRefine((item, ctx) => {
    for (const issue of protocolItemIssues(item)) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });

const FunctionCallRawSchema = z.looseObject({
  type: z.literal('function_call'),
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  providerData,
});

/** A hosted tool's call (web search, a remote MCP server's call or approval request, ...). */
const HostedToolCallRawSchema = z.looseObject({
  type: z.literal('hosted_tool_call'),
  name: z.string(),
  arguments: z.string().optional(),
  providerData,
});

/** A local tool's call (shell, apply-patch, computer): the fields the loop reads; the rest pass through. */
const ShellCallRawSchema = z.looseObject({ type: z.literal('shell_call'), callId: z.string(), action: z.looseObject({ commands: z.array(z.string()) }), providerData });
const ApplyPatchCallRawSchema = z.looseObject({ type: z.literal('apply_patch_call'), callId: z.string(), operation: z.looseObject({ type: z.string() }), providerData });
const ComputerCallRawSchema = z.looseObject({ type: z.literal('computer_call'), callId: z.string(), providerData });

const ToolCallRawSchema = z.discriminatedUnion('type', [
  FunctionCallRawSchema,
  HostedToolCallRawSchema,
  ShellCallRawSchema,
  ApplyPatchCallRawSchema,
  ComputerCallRawSchema,
]);

const FunctionCallResultRawSchema = z.looseObject({
  type: z.literal('function_call_result'),
  callId: z.string(),
  name: z.string(),
  output: z.unknown(),
  providerData,
});

/** The output of a function call or of a local tool's call. */
const ToolCallResultRawSchema = z.discriminatedUnion('type', [
  FunctionCallResultRawSchema,
  z.looseObject({ type: z.literal('shell_call_output'), callId: z.string(), output: z.array(z.looseObject({})), providerData }),
  z.looseObject({ type: z.literal('apply_patch_call_output'), callId: z.string(), status: z.string(), providerData }),
  z.looseObject({ type: z.literal('computer_call_result'), callId: z.string(), output: z.looseObject({ type: z.string() }), providerData }),
]);

const AssistantMessageRawSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.literal('assistant'),
  content: z.array(z.looseObject({ type: z.string() })),
  /** Whether the message is commentary between tool calls or the final answer (the only two phases a model gives). */
  phase: z.enum(['commentary', 'final_answer']).optional(),
  providerData,
});

const ReasoningRawSchema = z.looseObject({
  type: z.literal('reasoning'),
  content: z.array(z.looseObject({ type: z.string() })),
  providerData,
});

/** A program the model ran (Programmatic Tool Calling), and its output. */
const ProgramRawSchema = z.looseObject({ type: z.literal('program'), callId: z.string(), code: z.string(), providerData });

const ProgramOutputRawSchema = z.looseObject({ type: z.literal('program_output'), callId: z.string(), output: z.string(), providerData });

const ToolSearchCallRawSchema = z.looseObject({ type: z.literal('tool_search_call'), arguments: z.unknown(), providerData });

const ToolSearchOutputRawSchema = z.looseObject({ type: z.literal('tool_search_output'), tools: z.array(z.record(SafeKey, z.unknown())), providerData });

const CompactionRawSchema = z.looseObject({ type: z.literal('compaction'), encrypted_content: z.string(), providerData });

export const SerializedAgentRefSchema = z.object({
  name: z.string().min(1),
  /** Stable identity when several agents share a name (`Name#2`). */
  identity: z.string().min(1).optional(),
});

/** One model request's token counts, as `Usage.requestUsageEntries` keeps them. */
export const SerializedRequestUsageSchema = z.object({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  totalTokens: z.number().nonnegative(),
  inputTokensDetails: z.record(SafeKey, z.number()).optional(),
  outputTokensDetails: z.record(SafeKey, z.number()).optional(),
  endpoint: z.string().optional(),
});

export const SerializedUsageSchema = z.object({
  requests: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  totalTokens: z.number().nonnegative(),
  inputTokensDetails: z.array(z.record(SafeKey, z.number())).optional(),
  outputTokensDetails: z.array(z.record(SafeKey, z.number())).optional(),
  /** Per-request counts (optional: states written before Baton kept them load without). */
  requestUsageEntries: z.array(SerializedRequestUsageSchema).optional(),
});

export const SerializedToolApprovalItemSchema = z.object({
  type: z.literal('tool_approval_item'),
  rawItem: ToolCallRawSchema,
  /** Left out when it is the state's `currentAgent` (see `serializedItemAgent`). */
  agent: SerializedAgentRefSchema.optional(),
  toolName: z.string().min(1),
  /** A fingerprint of the tool's parameter schema when the approval was requested. */
  parametersFingerprint: z.string().optional(),
});

/**
 * A generated item. `agent` is left out when it is the state's `currentAgent` (most items of a run
 * are), so read it with `serializedItemAgent(item, state)`.
 */
export const SerializedRunItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_output_item'), rawItem: AssistantMessageRawSchema, agent: SerializedAgentRefSchema.optional() }),
  z.object({ type: z.literal('tool_call_item'), rawItem: z.discriminatedUnion('type', [...ToolCallRawSchema.options, ProgramRawSchema]), agent: SerializedAgentRefSchema.optional() }),
  z.object({
    type: z.literal('tool_call_output_item'),
    rawItem: z.discriminatedUnion('type', [...ToolCallResultRawSchema.options, ProgramOutputRawSchema]),
    agent: SerializedAgentRefSchema.optional(),
    /** The tool's raw return value, when it is not the text already in `rawItem.output`. */
    output: z.unknown().optional(),
    /** Schema 2: what the tool's `customDataExtractor` attached (a JSON object). */
    customData: z.record(SafeKey, z.unknown()).optional(),
  }),
  z.object({ type: z.literal('reasoning_item'), rawItem: ReasoningRawSchema, agent: SerializedAgentRefSchema.optional() }),
  z.object({ type: z.literal('tool_search_call_item'), rawItem: ToolSearchCallRawSchema, agent: SerializedAgentRefSchema.optional() }),
  z.object({ type: z.literal('tool_search_output_item'), rawItem: ToolSearchOutputRawSchema, agent: SerializedAgentRefSchema.optional() }),
  z.object({ type: z.literal('compaction_item'), rawItem: CompactionRawSchema, agent: SerializedAgentRefSchema.optional() }),
  z.object({ type: z.literal('input_item'), rawItem: SerializedProtocolItemSchema, agent: SerializedAgentRefSchema.optional(), inputId: z.string() }),
  z.object({ type: z.literal('handoff_call_item'), rawItem: FunctionCallRawSchema, agent: SerializedAgentRefSchema.optional() }),
  z.object({
    type: z.literal('handoff_output_item'),
    rawItem: FunctionCallResultRawSchema,
    agent: SerializedAgentRefSchema.optional(),
    sourceAgent: SerializedAgentRefSchema,
    targetAgent: SerializedAgentRefSchema,
  }),
  SerializedToolApprovalItemSchema,
]);

export const SerializedModelResponseSchema = z.object({
  usage: SerializedUsageSchema,
  output: z.array(SerializedProtocolItemSchema),
  responseId: z.string().optional(),
  requestId: z.string().optional(),
  providerData,
});

const DecisionMetadataSchema = z.object({
  approved: z.boolean(),
  decidedBy: z.string().optional(),
  reason: z.string().optional(),
  decidedAt: z.string().optional(),
});

export const SerializedApprovalRecordSchema = z.object({
  approved: z.union([z.boolean(), z.array(z.string())]),
  rejected: z.union([z.boolean(), z.array(z.string())]),
  messages: z.record(SafeKey, z.string()).optional(),
  stickyRejectMessage: z.string().optional(),
  decisions: z.record(SafeKey, DecisionMetadataSchema).optional(),
});

/** An open approval request: when it stops being answerable (then it counts as rejected). */
export const SerializedApprovalRequestSchema = z.object({
  expiresAt: z.iso.datetime({ offset: true }),
});

const GuardrailOutputSchema = z.object({ tripwireTriggered: z.boolean(), outputInfo: z.unknown().optional() });
const ToolGuardrailOutputSchema = z.object({
  behavior: z.discriminatedUnion('type', [
    z.object({ type: z.literal('allow') }),
    z.object({ type: z.literal('rejectContent'), message: z.string() }),
    z.object({ type: z.literal('throwException') }),
  ]),
  outputInfo: z.unknown().optional(),
});

export const SerializedNextStepSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('next_step_run_again') }),
  z.object({ type: z.literal('next_step_handoff') }),
  z.object({ type: z.literal('next_step_final_output'), output: z.string() }),
  z.object({ type: z.literal('next_step_interruption'), interruptions: z.array(SerializedToolApprovalItemSchema) }),
]);

export const SerializedRunContextSchema = z.object({
  context: z.unknown(),
  usage: SerializedUsageSchema,
  approvals: z.record(SafeKey, SerializedApprovalRecordSchema),
  /** Approval requests with an expiry, by tool name then call id. */
  approvalRequests: z.record(SafeKey, z.record(SafeKey, SerializedApprovalRequestSchema)).optional(),
  /** Decisions on remote MCP servers' approval requests, by server and remote tool (a JSON key), then request id. */
  hostedMcpApprovals: z.record(SafeKey, SerializedApprovalRecordSchema).optional(),
});

/** A trace as a run state keeps it; the tracing API key only when asked to (`includeTracingApiKey`). */
export const SerializedTraceSchema = z.object({
  object: z.literal('trace'),
  id: z.string(),
  workflow_name: z.string(),
  group_id: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  tracing_api_key: z.string().optional(),
});

export const SerializedRunStateSchema = z.object({
  $schemaVersion: z.literal(CURRENT_RUN_STATE_SCHEMA_VERSION),
  /** The run's id (Baton's addition): made when the run first starts, kept by a resumed run. */
  runId: z.string().optional(),
  currentTurn: z.number().int().nonnegative(),
  /** Whether the current turn's model call started and the turn did not settle (a cancelled call): resuming takes it again without counting it. */
  currentTurnInProgress: z.boolean().optional(),
  // 0 is a limit a run may be given (it fails before the first model call), so a state written with it is read back.
  maxTurns: z.number().int().nonnegative().nullable(),
  currentAgent: SerializedAgentRefSchema,
  originalInput: z.union([z.string(), z.array(SerializedProtocolItemSchema)]),
  generatedItems: z.array(SerializedRunItemSchema),
  modelResponses: z.array(SerializedModelResponseSchema),
  context: SerializedRunContextSchema,
  currentStep: SerializedNextStepSchema.optional(),
  inputGuardrailResults: z.array(z.object({ guardrail: z.object({ type: z.literal('input'), name: z.string() }), output: GuardrailOutputSchema })),
  outputGuardrailResults: z.array(
    z.object({
      guardrail: z.object({ type: z.literal('output'), name: z.string() }),
      agentOutput: z.unknown(),
      agent: SerializedAgentRefSchema,
      output: GuardrailOutputSchema,
    }),
  ),
  toolInputGuardrailResults: z.array(
    z.object({ guardrail: z.object({ type: z.literal('tool_input'), name: z.string() }), output: ToolGuardrailOutputSchema }),
  ),
  toolOutputGuardrailResults: z.array(
    z.object({ guardrail: z.object({ type: z.literal('tool_output'), name: z.string() }), output: ToolGuardrailOutputSchema }),
  ),
  /** Nested agent-tool runs that are paused, keyed `<toolName>:<callId>`, each a serialized state. */
  pendingAgentToolRuns: z.record(SafeKey, z.string()),
  /** Input added with `state.addInput(...)`, admitted before the next model call. */
  pendingInput: z.array(SerializedProtocolItemSchema).optional(),
  /** The run's `reasoningItemIdPolicy`, when one was given (a resumed run keeps it). */
  reasoningItemIdPolicy: z.enum(['preserve', 'omit']).optional(),
  /**
   * What the run's session has not received yet (Baton's addition, schema 3): written while the run
   * holds a paused turn back from its session until its output guardrails have seen it. `input`: the
   * run's new input, when not written yet; `items`: indexes into `generatedItems`. A run resumed
   * with a session writes them there once the turn completes.
   */
  sessionUnsaved: z
    .object({
      input: z.array(SerializedProtocolItemSchema).optional(),
      items: z.array(z.number().int().nonnegative()),
    })
    .optional(),
  /** The trace the run is part of (the reference's field): a resumed run continues it. */
  trace: SerializedTraceSchema.nullable().optional(),
});

/**
 * Whether reasoning items keep their provider id when they go back to the model (and into a
 * result's `history` / `output` and the session): `'omit'` drops it, for providers that refuse ids
 * they did not issue or when a history moves between providers. Default `'preserve'`.
 */
export type ReasoningItemIdPolicy = 'preserve' | 'omit';

export type SerializedRunState = z.infer<typeof SerializedRunStateSchema>;
export type SerializedTrace = z.infer<typeof SerializedTraceSchema>;
export type SerializedRunItem = z.infer<typeof SerializedRunItemSchema>;
export type SerializedToolApprovalItem = z.infer<typeof SerializedToolApprovalItemSchema>;
export type SerializedAgentRef = z.infer<typeof SerializedAgentRefSchema>;
export type SerializedApprovalRecord = z.infer<typeof SerializedApprovalRecordSchema>;
export type SerializedApprovalRequest = z.infer<typeof SerializedApprovalRequestSchema>;

/** The agent of a serialized item: its own `agent`, or the state's current agent when left out. */
export function serializedItemAgent(item: { agent?: SerializedAgentRef | undefined }, state: { currentAgent: SerializedAgentRef }): SerializedAgentRef {
  return item.agent ?? state.currentAgent;
}
