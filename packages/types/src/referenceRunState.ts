import { RunStateError } from './runStateError.js';
import { checkReferenceVersionFeatures } from './referenceRunStateVersions.js';
import { approvalItemShape } from './runStateInterruptionShape.js';

/**
 * Paused runs stored by `@openai/agents` (`state.toString()`, schema 1.x; 0.20.0 writes 1.22) are
 * read by mapping them onto Baton's own schema 2 (which has the reference's `customData` on tool
 * output items, from 1.13), so the rest of the reader (validation, agent
 * references, resumability checks) applies unchanged. What Baton cannot honour fails as a whole
 * with `RunStateError('unsupported_feature')` naming the feature: nothing is partially resumed.
 */
const REFERENCE_VERSION = /^1\.(\d+)$/;
/** The newest reference schema this reader was written against (@openai/agents 0.20.0). */
export const NEWEST_REFERENCE_RUN_STATE_MINOR = 22;

type Json = Record<string, unknown>;

/** A state written by the reference: a `1.x` schema version (every one it ever wrote, from 1.0). */
export function isReferenceRunState(value: unknown): value is Json {
  if (typeof value !== 'object' || value === null) return false;
  const json = value as Json;
  // Baton's own versions are whole numbers ('1', '2', ...): a `1.x` version is the reference's.
  return typeof json.$schemaVersion === 'string' && REFERENCE_VERSION.test(json.$schemaVersion);
}

const ITEM_TYPES = new Set(['message_output_item', 'tool_call_item', 'tool_call_output_item', 'reasoning_item', 'tool_search_call_item', 'tool_search_output_item', 'compaction_item', 'input_item', 'handoff_call_item', 'handoff_output_item', 'tool_approval_item']);

const FEATURES: Record<string, string> = {
  computer_call: 'computer tool approvals',
  shell_call: 'shell tool approvals',
  apply_patch_call: 'apply-patch tool approvals',
};

function unsupported(feature: string, path: Array<string | number>): RunStateError {
  return new RunStateError('unsupported_feature', `This run state was written by @openai/agents and uses ${feature}, which Baton does not implement.`, { path });
}

/** Baton's serialized state for a reference state. */
export function fromReferenceRunState(json: Json): Json {
  const minor = Number(REFERENCE_VERSION.exec(json.$schemaVersion as string)![1]);
  if (minor > NEWEST_REFERENCE_RUN_STATE_MINOR) {
    throw new RunStateError(
      'newer_version',
      `Run state schema version ${String(json.$schemaVersion)} (written by @openai/agents) is newer than Baton reads (up to 1.${NEWEST_REFERENCE_RUN_STATE_MINOR}).`,
      { foundVersion: json.$schemaVersion as string, supportedVersion: `1.${NEWEST_REFERENCE_RUN_STATE_MINOR}` },
    );
  }
  checkReferenceVersionFeatures(json);
  if (json.sandbox !== undefined && json.sandbox !== null) throw unsupported('sandbox sessions', ['sandbox']);
  const context = (json.context ?? {}) as Json;
  const out: Json = {
    $schemaVersion: '2',
    currentTurn: json.currentTurn,
    ...(json.currentTurnInProgress === true ? { currentTurnInProgress: true } : {}),
    maxTurns: json.maxTurns ?? null,
    currentAgent: json.currentAgent,
    originalInput: json.originalInput,
    generatedItems: list(json.generatedItems).map((item, i) => runItem(item, ['generatedItems', i])),
    modelResponses: list(json.modelResponses),
    context: {
      context: context.context ?? {},
      usage: context.usage,
      approvals: approvalsOf(context),
      // The input a nested agent-tool run was given (the reference restores it).
      ...(context.toolInput !== undefined ? { toolInput: context.toolInput } : {}),
    },
    inputGuardrailResults: list(json.inputGuardrailResults),
    outputGuardrailResults: list(json.outputGuardrailResults),
    toolInputGuardrailResults: list(json.toolInputGuardrailResults),
    toolOutputGuardrailResults: list(json.toolOutputGuardrailResults),
    pendingAgentToolRuns: pendingRunsOf(json.pendingAgentToolRuns),
  };
  if (Array.isArray(json.pendingInput) && json.pendingInput.length > 0) out.pendingInput = json.pendingInput;
  if (json.reasoningItemIdPolicy === 'preserve' || json.reasoningItemIdPolicy === 'omit') out.reasoningItemIdPolicy = json.reasoningItemIdPolicy;
  // The run's trace: resumed on Baton, the run goes on in the same trace.
  if (typeof json.trace === 'object' && json.trace !== null) out.trace = json.trace;
  const step = nextStep(json.currentStep as Json | undefined);
  if (step) out.currentStep = step;
  return out;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function runItem(item: Json, path: Array<string | number>): Json {
  const raw = (item.rawItem ?? {}) as Json;
  if (typeof raw.type === 'string' && FEATURES[raw.type]) throw unsupported(FEATURES[raw.type]!, [...path, 'rawItem', 'type']);
  if (typeof item.type !== 'string' || !ITEM_TYPES.has(item.type)) throw unsupported(`run items of type ${JSON.stringify(item.type)}`, [...path, 'type']);
  if (item.type !== 'tool_approval_item') return item;
  const { functionToolStateKey: _key, ...approval } = item;
  // A remote MCP server's approval request is named after the server's tool (the reference leaves the name out).
  if (raw.type === 'hosted_tool_call' && typeof approval.toolName !== 'string') approval.toolName = raw.name;
  return approval;
}

function nextStep(step: Json | undefined): Json | undefined {
  if (!step || typeof step.type !== 'string') return undefined;
  if (step.type === 'next_step_interruption') {
    const data = (step.data ?? {}) as Json;
    const interruptions = list(data.interruptions ?? step.interruptions);
    return { type: step.type, interruptions: interruptions.map((item, i) => runItem(approvalItemShape(item) as Json, ['currentStep', 'data', 'interruptions', i])) };
  }
  if (step.type === 'next_step_final_output') {
    return { type: step.type, output: typeof step.output === 'string' ? step.output : JSON.stringify(step.output ?? '') };
  }
  return { type: step.type };
}

/**
 * The reference keeps function-tool decisions per agent under a state key (`["bare","pay"]`) in
 * `functionApprovals`, and older ones by tool name in `approvals`; Baton keeps them by tool name.
 */
function approvalsOf(context: Json): Json {
  const out: Record<string, Json> = {};
  const merge = (toolName: string, record: Json) => {
    const current = out[toolName];
    out[toolName] = current ? mergeRecords(current, record) : { ...record };
  };
  // Hosted MCP decisions are kept under `["hosted_mcp", server, tool]`; Baton keeps them by the tool's name.
  for (const [name, record] of Object.entries((context.approvals ?? {}) as Record<string, Json>)) merge(name.startsWith('["hosted_mcp"') ? toolNameOf(name) : name, record);
  for (const entry of list(context.functionApprovals)) {
    for (const [key, record] of Object.entries((entry.approvals ?? {}) as Record<string, Json>)) merge(toolNameOf(key), record);
  }
  return out;
}

/**
 * The reference keys paused nested runs by tool state key and call id (`["bare","accountant"]:call_1`);
 * Baton by tool name (`accountant:call_1`). The nested states stay as written: the reader maps each
 * one when it reads it.
 */
function pendingRunsOf(pending: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof pending !== 'object' || pending === null) return out;
  for (const [key, nested] of Object.entries(pending as Json)) {
    const { stateKey, callId } = splitPendingRunKey(key);
    Object.defineProperty(out, `${toolNameOf(stateKey)}:${callId}`, { value: nested, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `["bare","name"]:callId` (the state key is JSON, so the first `]:` that ends valid JSON splits it) or `name:callId`. */
function splitPendingRunKey(key: string): { stateKey: string; callId: string } {
  if (key.startsWith('[')) {
    for (let end = key.indexOf(']:'); end !== -1; end = key.indexOf(']:', end + 1)) {
      const stateKey = key.slice(0, end + 1);
      if (isJson(stateKey)) return { stateKey, callId: key.slice(end + 2) };
    }
  }
  const colon = key.indexOf(':');
  return colon === -1 ? { stateKey: key, callId: '' } : { stateKey: key.slice(0, colon), callId: key.slice(colon + 1) };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function toolNameOf(stateKey: string): string {
  try {
    const parsed: unknown = JSON.parse(stateKey);
    if (Array.isArray(parsed) && typeof parsed.at(-1) === 'string') return parsed.at(-1) as string;
  } catch {
    // a plain tool name
  }
  return stateKey;
}

function mergeRecords(a: Json, b: Json): Json {
  const union = (x: unknown, y: unknown) => (x === true || y === true ? true : [...new Set([...(Array.isArray(x) ? x : []), ...(Array.isArray(y) ? y : [])])]);
  return {
    ...a,
    ...b,
    approved: union(a.approved, b.approved),
    rejected: union(a.rejected, b.rejected),
    messages: { ...(a.messages as Json | undefined), ...(b.messages as Json | undefined) },
  };
}
