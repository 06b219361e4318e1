import type { AgentInputItem } from '@baton/types';

/** The text a check reads from a value: strings as they are, anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The text of a run input: every message's text and every tool call's arguments and output. */
export function textOfInput(input: string | AgentInputItem[]): string {
  if (typeof input === 'string') return input;
  return input.map(textOfItem).filter((text) => text !== '').join('\n');
}

function textOfItem(item: AgentInputItem): string {
  if (item.type === 'function_call') return item.arguments;
  if (item.type === 'function_call_result') return textOfToolOutput(item.output);
  if (item.type === undefined || item.type === 'message') {
    const content = (item as { content: unknown }).content;
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) return content.map(textOfPart).filter((text) => text !== '').join('\n');
  }
  return '';
}

function textOfPart(part: unknown): string {
  if (typeof part !== 'object' || part === null) return '';
  const { type } = part as { type?: unknown };
  if (type === 'input_text' || type === 'output_text' || type === 'text') return String((part as { text?: unknown }).text ?? '');
  if (type === 'refusal') return String((part as { refusal?: unknown }).refusal ?? '');
  return '';
}

function textOfToolOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map(textOfPart).filter((text) => text !== '').join('\n');
  return textOfPart(output);
}

/** Parsed tool arguments, or the raw text when they are not JSON. */
export function parseArguments(raw: string): unknown {
  try {
    return raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    return raw;
  }
}
