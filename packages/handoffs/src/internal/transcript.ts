import type { AgentInputItem, AssistantContent, AudioContent, FunctionCallResultOutput } from '@baton/core';

/** A conversation as plain text, one line per item, for an agent to read (reasoning is left out). */
export function renderTranscript(items: readonly AgentInputItem[]): string {
  return items
    .map(renderItem)
    .filter((line): line is string => line !== undefined)
    .join('\n');
}

function renderItem(item: AgentInputItem): string | undefined {
  switch (item.type) {
    case 'function_call':
      return `[tool call] ${item.name}(${item.arguments})`;
    case 'function_call_result':
      return `[tool result] ${item.name}: ${renderOutput(item.output)}`;
    case 'hosted_tool_call':
      return `[hosted tool] ${item.name}`;
    case 'shell_call':
      return `[shell] ${item.action.commands.join(' && ')}`;
    case 'shell_call_output':
      return `[shell output] ${item.output.map((entry) => entry.stdout + entry.stderr).join('\n')}`;
    case 'apply_patch_call':
      return `[apply patch] ${item.operation.type} ${item.operation.path}`;
    case 'apply_patch_call_output':
      return `[apply patch ${item.status}]${item.output ? ` ${item.output}` : ''}`;
    case 'computer_call':
      return `[computer] ${(item.actions ?? (item.action ? [item.action] : [])).map((action) => action.type).join(', ')}`;
    case 'computer_call_result':
      return '[computer] screenshot';
    // Search, programs and compacted history say nothing a reader of the conversation needs.
    case 'tool_search_call':
    case 'tool_search_output':
    case 'program':
    case 'program_output':
    case 'compaction':
    case 'reasoning':
    case 'unknown':
      return undefined;
    default:
      break;
  }
  if (item.role === 'system') return `system: ${item.content}`;
  if (item.role === 'user') {
    const text =
      typeof item.content === 'string'
        ? item.content
        : item.content.map((part) => (part.type === 'input_text' ? part.text : part.type === 'audio' ? renderAudio(part) : `[${part.type === 'input_image' ? 'image' : 'file'}]`)).join(' ');
    return `user: ${text}`;
  }
  return `assistant: ${item.content.map(renderAssistantPart).join('')}`;
}

function renderAssistantPart(part: AssistantContent): string {
  switch (part.type) {
    case 'output_text':
      return part.text;
    case 'refusal':
      return `[refusal] ${part.refusal}`;
    case 'audio':
      return renderAudio(part);
    case 'image':
      return '[image]';
  }
}

/** Audio as its transcript when it has one (a spoken answer's words), else a marker. */
function renderAudio(part: AudioContent): string {
  return typeof part.transcript === 'string' && part.transcript !== '' ? `[audio] ${part.transcript}` : '[audio]';
}

function renderOutput(output: FunctionCallResultOutput): string {
  if (typeof output === 'string') return output;
  const parts = Array.isArray(output) ? output : [output];
  return parts.map((part) => (part.type === 'text' ? part.text : '[image]')).join(' ');
}
