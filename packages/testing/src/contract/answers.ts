import type { AgentInputItem, AgentOutputItem, Model, ModelRequest, ModelStreamEvent, SerializedFunctionTool, UsageData } from '@baton/types';

/** How the contract calls a model: one request, as `getResponse` or as `getStreamedResponse`. */
export type CallMode = 'plain' | 'streamed';
export const CALL_MODES: readonly CallMode[] = ['plain', 'streamed'];

/** What a model answered, the same shape for both modes (the streamed one keeps its events). */
export interface Answer {
  readonly output: AgentOutputItem[];
  readonly usage: UsageData;
  readonly responseId: string | undefined;
  readonly events: ModelStreamEvent[];
}

/** Calls the model once in the given mode. A streamed answer must end with exactly one `response_done`. */
export async function answer(model: Model, request: ModelRequest, mode: CallMode): Promise<Answer> {
  if (mode === 'plain') {
    const response = await model.getResponse(request);
    return { output: response.output, usage: response.usage, responseId: response.responseId, events: [] };
  }
  const events: ModelStreamEvent[] = [];
  for await (const event of model.getStreamedResponse(request)) events.push(event);
  const done = events.filter((event) => event.type === 'response_done');
  if (done.length !== 1) throw new Error(`model contract: a stream must end with one response_done event; got ${done.length}.`);
  const { response } = done[0] as Extract<ModelStreamEvent, { type: 'response_done' }>;
  return { output: response.output, usage: response.usage, responseId: response.id, events };
}

/** A request with what the contract does not vary filled in. */
export function request(input: string | AgentInputItem[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    input,
    modelSettings: { retry: { maxRetries: 0 } },
    tools: [],
    outputType: 'text',
    handoffs: [],
    tracing: false,
    ...extra,
  };
}

export const weatherTool: SerializedFunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

export const timeTool: SerializedFunctionTool = {
  type: 'function',
  name: 'get_time',
  description: 'The local time in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

/** The text of the assistant messages in an output, joined. */
export function textOf(output: readonly AgentOutputItem[]): string {
  return output
    .flatMap((item) => (item.type === 'message' && item.role === 'assistant' ? item.content : []))
    .flatMap((part) => (part.type === 'output_text' ? [part.text] : []))
    .join('');
}

export function refusalOf(output: readonly AgentOutputItem[]): string {
  return output
    .flatMap((item) => (item.type === 'message' && item.role === 'assistant' ? item.content : []))
    .flatMap((part) => (part.type === 'refusal' ? [part.refusal] : []))
    .join('');
}

export function callsOf(output: readonly AgentOutputItem[]): Array<Extract<AgentOutputItem, { type: 'function_call' }>> {
  return output.filter((item): item is Extract<AgentOutputItem, { type: 'function_call' }> => item.type === 'function_call');
}

/**
 * Items reduced to what every provider must agree on (ids and provider data differ by vendor).
 * `unknown` items are opaque provider data the loop only carries back (Anthropic's streamed
 * `message_start`, say), so they are left out.
 */
export function comparable(output: readonly AgentOutputItem[]): unknown[] {
  return output.flatMap((item) => {
    if (item.type === 'unknown') return [];
    if (item.type === 'message') return [{ type: 'message', text: textOf([item]), refusal: refusalOf([item]) }];
    if (item.type === 'function_call') return [{ type: 'function_call', name: item.name, arguments: parseOrRaw(item.arguments) }];
    if (item.type === 'reasoning') return [{ type: 'reasoning' }];
    return [{ type: String(item.type) }];
  });
}

function parseOrRaw(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
