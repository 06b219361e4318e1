/**
 * The agent of the durable-runs scenario, shared by its worker processes and the in-memory baseline
 * in the parent: an instant in-process `Model` that calls one tool, then answers; the tool returns
 * at once. The model is stateless (it answers from the conversation alone), as a durable run needs.
 */
import { Agent, tool } from '@baton/core';
import type { AgentInputItem, Model, ModelRequest, ModelResponse, ModelStreamEvent } from '@baton/types';
import { z } from 'zod';

export const DURABLE_AGENT_NAME = 'bench';
export const DURABLE_ANSWER = 'Found it: baton is found.';

const usage = { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 };

class InstantToolThenAnswerModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const items: readonly AgentInputItem[] = typeof request.input === 'string' ? [] : request.input;
    const result = items.find((item) => item.type === 'function_call_result') as { output: unknown } | undefined;
    if (!result) {
      return { usage, output: [{ type: 'function_call', callId: 'call_lookup', name: 'lookup', arguments: '{"word":"baton"}', status: 'completed' }] };
    }
    const said = typeof result.output === 'string' ? result.output : ((result.output as { text?: string }).text ?? JSON.stringify(result.output));
    return { usage, output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Found it: ${said}.` }] }] };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const response = await this.getResponse(request);
    yield { type: 'response_done', response: { id: 'resp', usage: response.usage as never, output: response.output } };
  }
}

export function durableBenchAgent(): Agent<any, any> {
  const lookup = tool({ name: 'lookup', description: 'Looks a word up.', parameters: z.object({ word: z.string() }), execute: ({ word }) => `${word} is found` });
  return new Agent({ name: 'Bench', instructions: 'Look words up.', model: new InstantToolThenAnswerModel(), tools: [lookup] });
}
