import { run, type RunStreamEvent } from '@baton/core';
import { supportAgents, type SupportContext, type SupportModels } from './agents.js';

export interface TriageOutcome {
  finalOutput: string | undefined;
  lastAgent: string;
  context: SupportContext;
}

/** Runs one support conversation, streamed, printing each step as it happens. */
export async function runTriage(
  models: SupportModels,
  question: string,
  context: SupportContext,
  print: (line: string) => void,
): Promise<TriageOutcome> {
  const { triage } = supportAgents(models);
  print(`user> ${question}`);
  const streamed = await run(triage, question, { stream: true, context });
  for await (const event of streamed) {
    const line = describe(event);
    if (line) print(line);
  }
  await streamed.completed;
  print(`final (${streamed.lastAgent.name})> ${streamed.finalOutput}`);
  return { finalOutput: streamed.finalOutput, lastAgent: streamed.lastAgent.name, context };
}

function describe(event: RunStreamEvent): string | undefined {
  if (event.type === 'agent_updated_stream_event') return `   now talking to ${event.agent.name}`;
  if (event.type !== 'run_item_stream_event') return undefined;
  const item = event.item;
  const who = `[${item.agent.name}]`;
  switch (item.type) {
    case 'tool_call_item':
      // Function calls carry a name and arguments; a shell, patch or computer call only its kind.
      return item.rawItem.type === 'function_call'
        ? `${who} calls ${item.rawItem.name}(${item.rawItem.arguments})`
        : `${who} calls ${item.toolName ?? item.rawItem.type}`;
    case 'tool_call_output_item':
      return `${who} ${item.rawItem.type === 'function_call_result' ? item.rawItem.name : item.rawItem.type} returned ${JSON.stringify(item.output)}`;
    case 'handoff_call_item':
      return `${who} hands off with ${item.rawItem.name}(${item.rawItem.arguments})`;
    case 'handoff_output_item':
      return `${who} handoff done: ${item.sourceAgent.name} -> ${item.targetAgent.name}`;
    case 'message_output_item':
      return `${who} says: ${item.content}`;
    default:
      return undefined;
  }
}
