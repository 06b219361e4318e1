import * as Option from 'effect/Option';
import type { FunctionSpanData, SpanData, SpanError, TaskUsageData, TurnUsageData } from '../spanData.js';

/**
 * How core's loop spans (names and `baton.*` attributes, see the core README) become the
 * reference's span data. `undefined`: the loop span has no span of its own here (its children hang
 * from the nearest one that has).
 */
export function spanDataFor(name: string, attributes: Readonly<Record<string, unknown>>, settings: MappingSettings): SpanData | undefined {
  switch (name) {
    case 'baton.run':
      return settings.includeTaskAndTurnSpans ? { type: 'task', name: settings.workflowName } : undefined;
    case 'baton.agent':
      return { type: 'agent', name: String(attributes['baton.agent.name'] ?? 'Agent') };
    case 'baton.turn':
      return settings.includeTaskAndTurnSpans
        ? { type: 'turn', turn: Number(attributes['baton.turn'] ?? 0), agent_name: String(attributes['baton.agent'] ?? '') }
        : undefined;
    case 'baton.model': {
      // Only models that say how they are traced get a span (the reference's providers make theirs).
      const type = attributes['baton.model.span_type'];
      return type === 'response' ? { type: 'response' } : type === 'generation' ? { type: 'generation' } : undefined;
    }
    case 'baton.tool': {
      const data: FunctionSpanData = { type: 'function', name: String(attributes['baton.tool.name'] ?? ''), input: '', output: '' };
      // The reference records the server of an MCP tool as an object, though its type says string.
      if (typeof attributes['baton.tool.mcp_server'] === 'string') data.mcp_data = { server: attributes['baton.tool.mcp_server'] } as never;
      return data;
    }
    case 'baton.mcp.list_tools':
      return { type: 'mcp_tools', server: String(attributes['baton.mcp.server'] ?? '') };
    case 'baton.handoff':
      return { type: 'handoff', from_agent: String(attributes['baton.handoff.from'] ?? '') };
    case 'baton.guardrail.input':
    case 'baton.guardrail.output':
      return { type: 'guardrail', name: String(attributes['baton.guardrail.name'] ?? ''), triggered: false };
    default:
      // Anyone's own Effect spans inside a run (a tool written with Effect, say) become custom spans.
      return { type: 'custom', name, data: { ...attributes } };
  }
}

export interface MappingSettings {
  readonly workflowName: string;
  readonly includeSensitiveData: boolean;
  readonly includeTaskAndTurnSpans: boolean;
}

/** Applies an attribute set while the span is open. Sensitive fields only with `includeSensitiveData`. */
export function applyAttribute(data: SpanData, key: string, value: unknown, settings: MappingSettings): void {
  switch (data.type) {
    case 'agent':
      if (key === 'baton.agent.tools') data.tools = [...(value as string[])];
      else if (key === 'baton.agent.handoffs') data.handoffs = [...(value as string[])];
      else if (key === 'baton.agent.output_type') data.output_type = String(value);
      return;
    case 'function':
      if (key === 'baton.tool.call_id') data._call_id = String(value);
      // A call rejected by a human never ran: its arguments stay out (as the reference's).
      if (key === 'baton.tool.rejection') data.input = '';
      if (!settings.includeSensitiveData) return;
      if (key === 'baton.tool.input') data.input = String(value);
      else if (key === 'baton.tool.output') data.output = String(value);
      return;
    case 'mcp_tools':
      if (key === 'baton.mcp.tools') data.result = [...(value as string[])];
      return;
    case 'guardrail':
      if (key === 'baton.guardrail.triggered') data.triggered = value === true;
      return;
    case 'handoff':
      if (key === 'baton.handoff.to') data.to_agent = String(value);
      return;
    case 'response':
      // Kept in process only (`_` fields are never exported to OpenAI): for OpenTelemetry's GenAI attributes.
      if (key === 'baton.model.name' && typeof value === 'string') data._model = value;
      if (key === 'baton.model.response') {
        const usage = (value as { usage?: UsageLike }).usage;
        if (usage) data._usage = { input_tokens: usage.inputTokens ?? 0, output_tokens: usage.outputTokens ?? 0 };
      }
      if (key === 'baton.model.response' && settings.includeSensitiveData) {
        const response = value as { responseId?: string; output?: unknown };
        if (response.responseId !== undefined) data.response_id = response.responseId;
        data._response = response as Record<string, any>;
      } else if (key === 'baton.model.request' && settings.includeSensitiveData) {
        data._input = (value as { input?: string | Record<string, any>[] }).input as string | Record<string, any>[];
      }
      return;
    case 'generation':
      if (key === 'baton.model.name' && typeof value === 'string') data.model = value;
      else if (key === 'baton.model.request') {
        const request = value as { input?: unknown; modelSettings?: Record<string, any> };
        data.model_config = { ...request.modelSettings };
        if (settings.includeSensitiveData) data.input = asItems(request.input);
      } else if (key === 'baton.model.response') {
        const response = value as { output?: unknown; usage?: UsageLike };
        if (response.usage) data.usage = { input_tokens: response.usage.inputTokens ?? 0, output_tokens: response.usage.outputTokens ?? 0 };
        if (settings.includeSensitiveData) data.output = asItems(response.output);
      }
      return;
    case 'custom':
      if (!key.startsWith('baton.')) data.data[key] = value;
      return;
    default:
      return;
  }
}

function asItems(value: unknown): Array<Record<string, any>> {
  if (typeof value === 'string') return [{ role: 'user', content: value }];
  return Array.isArray(value) ? (value as Array<Record<string, any>>) : [];
}

export interface UsageLike {
  requests?: number;
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  inputTokensDetails?: Array<Record<string, number>> | Record<string, number>;
}

/** A turn's or task's token counts, as the reference adds them up from each model call below it. */
export class UsageTally {
  requests = 0;
  inputTokens = 0;
  outputTokens = 0;
  totalTokens = 0;
  cachedInputTokens = 0;
  cacheWriteInputTokens = 0;

  add(usage: UsageLike): void {
    this.requests += usage.requests ?? 1;
    this.inputTokens += usage.inputTokens ?? 0;
    this.outputTokens += usage.outputTokens ?? 0;
    this.totalTokens += usage.totalTokens ?? 0;
    const details = Array.isArray(usage.inputTokensDetails) ? usage.inputTokensDetails : usage.inputTokensDetails ? [usage.inputTokensDetails] : [];
    for (const detail of details) {
      this.cachedInputTokens += (detail.cached_tokens ?? 0) + (detail.cached_input_tokens ?? 0);
      this.cacheWriteInputTokens += detail.cache_write_tokens ?? 0;
    }
  }

  /** Every count 0 (the reference writes a span's usage when any one is not, cached tokens included). */
  get empty(): boolean {
    return [this.requests, this.inputTokens, this.outputTokens, this.totalTokens, this.cachedInputTokens, this.cacheWriteInputTokens].every((count) => count === 0);
  }

  turn(): TurnUsageData {
    return {
      input_tokens: this.inputTokens,
      output_tokens: this.outputTokens,
      cached_input_tokens: this.cachedInputTokens,
      cache_write_input_tokens: this.cacheWriteInputTokens,
    };
  }

  task(): TaskUsageData {
    return { ...this.turn(), requests: this.requests, total_tokens: this.totalTokens };
  }
}

/** The error a span ends with: what the loop said (`baton.error.*`), else what the reference writes for that kind. */
const REDACTED_TOOL_ERROR = 'Tool execution failed. Error details are redacted.';

export function spanErrorFor(data: SpanData, attributes: ReadonlyMap<string, unknown>, failed: Option.Option<unknown>, settings: MappingSettings): SpanError | undefined {
  const message = attributes.get('baton.error.message');
  const runLevel = data.type === 'task' || data.type === 'turn' || data.type === 'agent';
  if (typeof message === 'string' && !(runLevel && Option.isSome(failed))) {
    const errorData = attributes.get('baton.error.data');
    return { message, ...(errorData && typeof errorData === 'object' ? { data: errorData as Record<string, any> } : {}) };
  }
  if (Option.isNone(failed)) {
    const rejection = attributes.get('baton.tool.rejection') as { message: string; defaultMessage: string } | undefined;
    if (data.type === 'function' && rejection) {
      return {
        message: settings.includeSensitiveData ? rejection.message : rejection.defaultMessage,
        data: { tool_name: data.name, error: `Tool execution for ${String(attributes.get('baton.tool.call_id'))} was manually rejected by user.` },
      };
    }
    if (data.type === 'function' && attributes.has('baton.tool.error')) {
      // The tool failed and its error function answered the model. Its error reaches the trace only
      // from a tool's own error function with sensitive data on (the reference's rule).
      const shown = settings.includeSensitiveData && attributes.get('baton.tool.error_function') === 'custom';
      return { message: 'Error running tool (non-fatal)', data: { tool_name: data.name, error: shown ? String(attributes.get('baton.tool.error')) : REDACTED_TOOL_ERROR } };
    }
    return undefined;
  }
  const failure = failed.value;
  const detail = settings.includeSensitiveData ? String(failure) : 'Error';
  switch (data.type) {
    case 'task':
    case 'turn':
    case 'agent':
      return { message: 'Error in agent run', data: { error: detail } };
    case 'function':
      // The tool's own error, not the ToolCallError the run fails with. Its text can carry the
      // tool's arguments or secrets: without sensitive data it stays out (the reference exports it).
      return {
        message: 'Error running tool',
        data: { tool_name: data.name, error: settings.includeSensitiveData ? String(toolErrorOf(failure)) : REDACTED_TOOL_ERROR },
      };
    case 'guardrail':
      // With sensitive data, the guardrail's own error as the reference records a failed span
      // (its message, and its `data` when it has some); without, a generic message.
      if (!settings.includeSensitiveData) return { message: 'Error running guardrail', data: { guardrail: data.name, error: detail } };
      return referenceSpanError(wrappedErrorOf(failure, 'GuardrailExecutionError'));
    default:
      if (!settings.includeSensitiveData) return { message: GENERIC_MESSAGES[data.type] ?? 'Error', data: { error: detail } };
      // With sensitive data, as the reference records the thrown error: its message, and its \`data\` when it has some.
      return referenceSpanError(failure);
  }
}

/** A span's message when the failure's own text may not be exported (no sensitive data). */
const GENERIC_MESSAGES: Partial<Record<SpanData['type'], string>> = {
  generation: 'Error getting response',
  response: 'Error getting response',
  mcp_tools: 'Error listing MCP tools',
  handoff: 'Error running handoff',
  custom: 'Error in span',
};

function toolErrorOf(failure: unknown): unknown {
  return wrappedErrorOf(failure, 'ToolCallError');
}

/** The error a run error of that name wraps (in its `error` field), else the failure itself. */
function wrappedErrorOf(failure: unknown, name: string): unknown {
  const inner = (failure as { name?: unknown; error?: unknown } | null)?.error;
  return (failure as { name?: unknown })?.name === name && inner !== undefined ? inner : failure;
}

/** What the reference writes on a span whose function threw `error`: its message, and its `data` whatever it is. */
function referenceSpanError(error: unknown): SpanError {
  const record = typeof error === 'object' && error !== null ? (error as { message?: unknown; data?: unknown }) : undefined;
  const message = typeof record?.message === 'string' ? record.message : String(error);
  return record?.data !== undefined ? { message, data: record.data as Record<string, any> } : { message };
}
