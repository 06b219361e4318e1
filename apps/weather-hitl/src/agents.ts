import { z } from 'zod';
import { Agent, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, modelResponder } from '@baton/testing';
import type { AgentInputItem, FunctionCallItem, FunctionCallResultItem, Model } from '@baton/core';

/**
 * The seed's agent graph: a basic agent that hands off to a data agent, whose weather tool needs
 * approval for San Francisco only. Both processes build it the same way.
 */
export function buildAgents(model: Model) {
  const getWeatherTool = tool({
    name: 'get_weather',
    description: 'Get the weather for a given city',
    parameters: z.object({ location: z.string() }),
    // Forces approval to look up the weather in San Francisco.
    needsApproval: async (_context, { location }) => location === 'San Francisco',
    execute: async ({ location }) => `The weather in ${location} is sunny`,
  });
  const dataAgentTwo = new Agent({
    name: 'Data agent',
    instructions: 'You are a data agent',
    handoffDescription: 'You know everything about the weather',
    model,
    tools: [getWeatherTool],
  });
  const agent = new Agent({ name: 'Basic test agent', instructions: 'You are a basic agent', model, handoffs: [dataAgentTwo] });
  return { agent, dataAgentTwo };
}

export const QUESTION = 'What is the weather in Oakland and San Francisco?';

/** The model of the first process: it hands off, then asks for the weather in both cities. */
export function firstProcessModel(): ScriptedModel {
  return new ScriptedModel([
    [functionCall('transfer_to_Data_agent', {}, { callId: 'call_handoff' })],
    [
      functionCall('get_weather', { location: 'Oakland' }, { callId: 'call_oakland' }),
      functionCall('get_weather', { location: 'San Francisco' }, { callId: 'call_sf' }),
    ],
  ]);
}

/** The model of the resuming process: it answers from whatever the tools returned. */
export function resumingProcessModel(): ScriptedModel {
  return new ScriptedModel([modelResponder((call) => [assistantMessage(answerFrom(call.request.input))])]);
}

function answerFrom(input: string | AgentInputItem[]): string {
  if (!Array.isArray(input)) return 'I could not look anything up.';
  const calls = new Map<string, string>();
  for (const item of input) {
    if (item.type === 'function_call' && (item as FunctionCallItem).name === 'get_weather') {
      calls.set(item.callId, (JSON.parse((item as FunctionCallItem).arguments) as { location: string }).location);
    }
  }
  const lines: string[] = [];
  for (const item of input) {
    if (item.type !== 'function_call_result' || !calls.has(item.callId)) continue;
    const output = (item as FunctionCallResultItem).output;
    lines.push(`${calls.get(item.callId)}: ${typeof output === 'string' ? output : 'text' in (output as object) ? (output as { text: string }).text : ''}`);
  }
  return lines.join('\n');
}
