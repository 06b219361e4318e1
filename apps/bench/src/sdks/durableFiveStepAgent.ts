/**
 * The agent of the durable-run latency scenario (issue 28): five steps with an instant model, the
 * same in a worker process and in memory. The model calls `lookup`, then `lookup` again, then
 * answers: three model calls and two tool calls, each a step (`t1:model`, `tool:call_1`, `t2:model`,
 * `tool:call_2`, `t3:model`). The model answers from the conversation alone (stateless), as a
 * durable run needs; the tool returns at once.
 */
import { Agent, tool } from '@baton/core';
import type { AgentInputItem, Model, ModelRequest, ModelResponse, ModelStreamEvent } from '@baton/types';
import { z } from 'zod';

export const FIVE_STEP_AGENT_NAME = 'five-steps';
export const FIVE_STEP_ANSWER = 'Found both: alpha is found, beta is found.';

const usage = { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 };
const WORDS = ['alpha', 'beta'] as const;

class InstantTwoToolsThenAnswerModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const items: readonly AgentInputItem[] = typeof request.input === 'string' ? [] : request.input;
    const results = items.filter((item) => item.type === 'function_call_result') as Array<{ output: unknown }>;
    if (results.length < WORDS.length) {
      const n = results.length + 1;
      return { usage, output: [{ type: 'function_call', callId: `call_${n}`, name: 'lookup', arguments: JSON.stringify({ word: WORDS[results.length] }), status: 'completed' }] };
    }
    const said = results.map((result) => (typeof result.output === 'string' ? result.output : ((result.output as { text?: string }).text ?? JSON.stringify(result.output))));
    return { usage, output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Found both: ${said.join(', ')}.` }] }] };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const response = await this.getResponse(request);
    yield { type: 'response_done', response: { id: 'resp', usage: response.usage as never, output: response.output } };
  }
}

export function fiveStepAgent(): Agent<any, any> {
  const lookup = tool({ name: 'lookup', description: 'Looks a word up.', parameters: z.object({ word: z.string() }), execute: ({ word }) => `${word} is found` });
  return new Agent({ name: 'FiveSteps', instructions: 'Look words up.', model: new InstantTwoToolsThenAnswerModel(), tools: [lookup] });
}
