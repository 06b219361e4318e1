import { z } from 'zod';
import { Agent, tool, type FunctionTool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, modelResponder, type ScriptedModelInput } from '@baton/testing';
import type { FunctionCallResultItem, ModelRequest, ReasoningItem } from '@baton/types';

/** Tool executions, by tool name, so tests can assert what ran (and that nothing ran twice). */
export class Executions {
  readonly calls: string[] = [];
  record(label: string): void {
    this.calls.push(label);
  }
  count(label: string): number {
    return this.calls.filter((c) => c === label).length;
  }
}

/** The text of every function_call_result a model request carried, by call id. */
export function toolOutputsIn(request: Readonly<ModelRequest> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const input = request?.input;
  if (!Array.isArray(input)) return out;
  for (const item of input) {
    if (item.type !== 'function_call_result') continue;
    const output = (item as FunctionCallResultItem).output;
    out[item.callId] = typeof output === 'string' ? output : Array.isArray(output) ? '' : output.type === 'text' ? output.text : '';
  }
  return out;
}

/** A final message that repeats the tool outputs it received, so resumed runs show what the model saw. */
export function echoOutputs(prefix: string): ScriptedModelInput {
  return modelResponder((call) => [assistantMessage(`${prefix}: ${JSON.stringify(toolOutputsIn(call.request))}`)]);
}

export function weatherTool(executions: Executions): FunctionTool {
  return tool({
    name: 'get_weather',
    description: 'Get the weather for a given city',
    parameters: z.object({ location: z.string() }),
    // Approval only for San Francisco, as in the seed.
    needsApproval: async (_ctx, { location }) => location === 'San Francisco',
    execute: ({ location }) => {
      executions.record(`get_weather:${location}`);
      return `The weather in ${location} is sunny`;
    },
  });
}

/**
 * The seed's weather flow: a basic agent hands off to a data agent, which looks up the weather in
 * Oakland (no approval) and San Francisco (approval). One scripted model plays both agents.
 */
export function weatherScenario(options: { afterResume?: ScriptedModelInput[]; resumeOnly?: boolean } = {}) {
  const executions = new Executions();
  const beforePause: ScriptedModelInput[] = [
    [functionCall('transfer_to_Data_agent', {}, { callId: 'call_handoff' })],
    [
      reasoning('Two cities: look both up.'),
      functionCall('get_weather', { location: 'Oakland' }, { callId: 'call_oak' }),
      functionCall('get_weather', { location: 'San Francisco' }, { callId: 'call_sf' }),
    ],
  ];
  // `resumeOnly`: another process, whose model is scripted for the turns after the pause only.
  const model = new ScriptedModel([...(options.resumeOnly ? [] : beforePause), ...(options.afterResume ?? [echoOutputs('Weather')])]);
  const dataAgent = new Agent({
    name: 'Data agent',
    instructions: 'You are a data agent',
    handoffDescription: 'You know everything about the weather',
    model,
    tools: [weatherTool(executions)],
  });
  const root = new Agent({ name: 'Basic test agent', instructions: 'You are a basic agent', model, handoffs: [dataAgent] });
  return { root, dataAgent, model, executions };
}

export function reasoning(text: string): ReasoningItem {
  return { type: 'reasoning', id: `rs_${text.length}`, content: [{ type: 'input_text', text }] };
}

/** A tool that always needs approval and records its runs. */
export function approvalTool(name: string, executions: Executions): FunctionTool {
  return tool({
    name,
    description: `${name} (needs approval)`,
    parameters: z.object({ target: z.string() }),
    needsApproval: true,
    execute: ({ target }) => {
      executions.record(`${name}:${target}`);
      return `${name} done for ${target}`;
    },
  });
}

/**
 * Agents as tools, nested `depth` levels: level 1 is the root, the deepest level has a `pay` tool
 * that needs approval. Each level's model calls the next level's agent tool, then echoes what it got.
 */
export function nestedScenario(depth: number, options: { payments?: number; resumeOnly?: boolean } = {}) {
  const payments = options.payments ?? 1;
  // `resumeOnly`: another process, resuming after the first pause (each level's first step is taken).
  const skip = options.resumeOnly ? 1 : 0;
  const executions = new Executions();
  const models: ScriptedModel[] = [];
  const pay = approvalTool('pay', executions);
  let inner: Agent<any, any> | undefined;
  for (let level = depth; level >= 1; level--) {
    const name = `Level ${level}`;
    const script: ScriptedModelInput[] =
      level === depth
        ? [
            ...Array.from({ length: payments }, (_, i) => [functionCall('pay', { target: `payee_${i + 1}` }, { callId: `pay_${i + 1}` })]),
            echoOutputs(name),
          ]
        : [[functionCall(`ask_level_${level + 1}`, { input: 'pay' }, { callId: `ask_${level + 1}` })], echoOutputs(name)];
    const model = new ScriptedModel(script.slice(skip));
    models.unshift(model);
    const agent: Agent<any, any> = new Agent({
      name,
      instructions: `Level ${level}`,
      model,
      tools: level === depth ? [pay] : [inner!.asTool({ toolName: `ask_level_${level + 1}`, toolDescription: `Ask level ${level + 1}` })],
    });
    inner = agent;
  }
  return { root: inner!, models, executions };
}

export { assistantMessage, functionCall, ScriptedModel };
