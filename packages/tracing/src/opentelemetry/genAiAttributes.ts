import type { Attributes } from '@opentelemetry/api';
import type { SpanData } from '../spanData.js';

/**
 * An OpenTelemetry span name and attributes for a span, following the OpenTelemetry GenAI semantic
 * conventions (`gen_ai.*`) where they have a name for it, and `baton.*` where they do not.
 */
export function otelSpanOf(data: SpanData): { name: string; attributes: Attributes } {
  switch (data.type) {
    case 'task':
      return { name: `invoke_workflow ${data.name}`, attributes: { 'gen_ai.operation.name': 'invoke_workflow', 'baton.workflow.name': data.name } };
    case 'agent':
      return {
        name: `invoke_agent ${data.name}`,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': data.name,
          ...(data.tools ? { 'baton.agent.tools': data.tools } : {}),
          ...(data.handoffs ? { 'baton.agent.handoffs': data.handoffs } : {}),
          ...(data.output_type ? { 'gen_ai.output.type': data.output_type === 'text' ? 'text' : 'json' } : {}),
        },
      };
    case 'turn':
      return { name: `turn ${data.turn}`, attributes: { 'baton.turn': data.turn, 'gen_ai.agent.name': data.agent_name } };
    case 'response':
    case 'generation': {
      const model = data.type === 'generation' ? data.model : data._model;
      const usage = data.type === 'generation' ? data.usage : data._usage;
      return {
        name: model ? `chat ${model}` : 'chat',
        attributes: {
          'gen_ai.operation.name': 'chat',
          ...(model ? { 'gen_ai.request.model': model } : {}),
          ...(data.type === 'response' && data.response_id ? { 'gen_ai.response.id': data.response_id } : {}),
          ...(usage?.input_tokens !== undefined ? { 'gen_ai.usage.input_tokens': usage.input_tokens } : {}),
          ...(usage?.output_tokens !== undefined ? { 'gen_ai.usage.output_tokens': usage.output_tokens } : {}),
          ...(data.type === 'generation' && data.input ? { 'gen_ai.input.messages': JSON.stringify(data.input) } : {}),
          ...(data.type === 'generation' && data.output ? { 'gen_ai.output.messages': JSON.stringify(data.output) } : {}),
        },
      };
    }
    case 'function': {
      const callId = data._call_id;
      return {
        name: `execute_tool ${data.name}`,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': data.name,
          'gen_ai.tool.type': 'function',
          ...(callId ? { 'gen_ai.tool.call.id': callId } : {}),
          // Empty unless the run includes sensitive data in traces.
          ...(data.input ? { 'gen_ai.tool.call.arguments': data.input } : {}),
          ...(data.output ? { 'gen_ai.tool.call.result': data.output } : {}),
        },
      };
    }
    case 'handoff':
      return {
        name: `handoff ${data.from_agent ?? ''} -> ${data.to_agent ?? ''}`.trim(),
        attributes: { ...(data.from_agent ? { 'baton.handoff.from': data.from_agent } : {}), ...(data.to_agent ? { 'baton.handoff.to': data.to_agent } : {}) },
      };
    case 'guardrail':
      return { name: `guardrail ${data.name}`, attributes: { 'baton.guardrail.name': data.name, 'baton.guardrail.triggered': data.triggered } };
    case 'custom':
      return { name: data.name, attributes: flatten(data.data) };
    case 'mcp_tools':
      return { name: `mcp_list_tools ${data.server ?? ''}`.trim(), attributes: { ...(data.server ? { 'baton.mcp.server': data.server } : {}), ...(data.result ? { 'baton.mcp.tools': data.result } : {}) } };
    default:
      return { name: data.type, attributes: {} };
  }
}

/** Custom span data as attributes: primitives and arrays of them as they are, anything else as JSON. */
function flatten(data: Record<string, unknown>): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') attributes[key] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) attributes[key] = value as string[];
    else if (value !== undefined) attributes[key] = JSON.stringify(value);
  }
  return attributes;
}
