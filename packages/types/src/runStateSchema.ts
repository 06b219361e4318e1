import { z } from 'zod';

/**
 * The serialized run-state format. `$schemaVersion` names the format; every change to it adds a new
 * version and a migration from the previous one (see @baton/hitl-state), never an in-place edit.
 */
export const CURRENT_RUN_STATE_SCHEMA_VERSION = '1' as const;

const providerData = z.record(z.string(), z.unknown()).optional();

/** Protocol items are validated on their discriminating fields; other fields pass through. */
export const SerializedProtocolItemSchema = z.looseObject({
  type: z.string().optional(),
  role: z.enum(['user', 'assistant', 'system']).optional(),
  providerData,
});

export const SerializedAgentRefSchema = z.object({
  name: z.string().min(1),
  /** Stable identity when several agents share a name (`Name#2`). */
  identity: z.string().min(1).optional(),
});

export const SerializedUsageSchema = z.object({
  requests: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  totalTokens: z.number().nonnegative(),
  inputTokensDetails: z.array(z.record(z.string(), z.number())).optional(),
  outputTokensDetails: z.array(z.record(z.string(), z.number())).optional(),
});

export const SerializedRunItemSchema = z.object({
  type: z.enum([
    'message_output_item',
    'tool_call_item',
    'tool_call_output_item',
    'reasoning_item',
    'handoff_call_item',
    'handoff_output_item',
    'tool_approval_item',
  ]),
  rawItem: SerializedProtocolItemSchema,
  agent: SerializedAgentRefSchema.optional(),
  sourceAgent: SerializedAgentRefSchema.optional(),
  targetAgent: SerializedAgentRefSchema.optional(),
  output: z.unknown().optional(),
  toolName: z.string().optional(),
});

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
  messages: z.record(z.string(), z.string()).optional(),
  stickyRejectMessage: z.string().optional(),
  decisions: z.record(z.string(), DecisionMetadataSchema).optional(),
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
  z.object({ type: z.literal('next_step_interruption'), interruptions: z.array(SerializedRunItemSchema) }),
]);

export const SerializedRunStateSchema = z.object({
  $schemaVersion: z.literal(CURRENT_RUN_STATE_SCHEMA_VERSION),
  currentTurn: z.number().int().nonnegative(),
  maxTurns: z.number().int().positive().nullable(),
  currentAgent: SerializedAgentRefSchema,
  originalInput: z.union([z.string(), z.array(SerializedProtocolItemSchema)]),
  generatedItems: z.array(SerializedRunItemSchema),
  modelResponses: z.array(SerializedModelResponseSchema),
  context: z.object({
    context: z.unknown(),
    usage: SerializedUsageSchema,
    approvals: z.record(z.string(), SerializedApprovalRecordSchema),
  }),
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
  pendingAgentToolRuns: z.record(z.string(), z.string()),
});

export type SerializedRunState = z.infer<typeof SerializedRunStateSchema>;
export type SerializedRunItem = z.infer<typeof SerializedRunItemSchema>;
