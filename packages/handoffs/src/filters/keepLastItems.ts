import { toolCallIdOf, type AgentInputItem, type HandoffInputData, type RunItem } from '@baton/core';
import { withItems } from '../internal/items.js';
import { positiveInteger } from '@baton/core/internal';

type Entry = { from: 'input'; item: AgentInputItem | string } | { from: 'pre' | 'new'; item: RunItem };

/**
 * A handoff input filter that keeps the last `count` items of the whole conversation (input
 * history, then the items before the handoff, then this turn's items; a string input counts as one
 * item). A tool or handoff output whose call was cut off is dropped as well, so what is left is
 * still a history a provider accepts.
 */
export function keepLastItems(count: number): (data: HandoffInputData) => HandoffInputData {
  const limit = positiveInteger(count, 'keepLastItems(count)');
  return (data: HandoffInputData): HandoffInputData => {
    const entries: Entry[] = [
      ...(typeof data.inputHistory === 'string' ? [data.inputHistory] : data.inputHistory).map((item) => ({ from: 'input' as const, item })),
      ...data.preHandoffItems.map((item) => ({ from: 'pre' as const, item })),
      ...data.newItems.map((item) => ({ from: 'new' as const, item })),
    ];
    const kept = entries.slice(-limit);
    const calls = new Set(kept.map(callIdOfCall).filter((id): id is string => id !== undefined));
    const valid = kept.filter((entry) => {
      const output = callIdOfOutput(entry);
      return output === undefined || calls.has(output);
    });
    const input = valid.filter((e) => e.from === 'input').map((e) => e.item);
    const inputHistory = typeof data.inputHistory === 'string' ? ((input[0] as string | undefined) ?? []) : (input as AgentInputItem[]);
    return withItems(data, inputHistory, runItems(valid, 'pre'), runItems(valid, 'new'));
  };
}

function runItems(entries: Entry[], from: 'pre' | 'new'): RunItem[] {
  return entries.flatMap((e) => (e.from === from ? [e.item] : []));
}

function callIdOfCall(entry: Entry): string | undefined {
  if (typeof entry.item === 'string') return undefined;
  if (entry.from === 'input') {
    const item = entry.item as AgentInputItem;
    return item.type === 'function_call' ? item.callId : undefined;
  }
  const item = entry.item as RunItem;
  if (item.type === 'handoff_call_item') return item.rawItem.callId;
  return item.type === 'tool_call_item' || item.type === 'tool_approval_item' ? toolCallIdOf(item.rawItem) : undefined;
}

function callIdOfOutput(entry: Entry): string | undefined {
  if (typeof entry.item === 'string') return undefined;
  if (entry.from === 'input') {
    const item = entry.item as AgentInputItem;
    return item.type === 'function_call_result' ? item.callId : undefined;
  }
  const item = entry.item as RunItem;
  return item.type === 'tool_call_output_item' || item.type === 'handoff_output_item' ? item.rawItem.callId : undefined;
}
