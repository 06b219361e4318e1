import { Usage, type Model, type ModelRequest, type ModelResponse, type ModelStreamEvent } from '@baton/types';

// A model is any object with getResponse and getStreamedResponse (a provider depends on @baton/types only).
export class EchoModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const text = typeof request.input === 'string' ? request.input : JSON.stringify(request.input.at(-1));
    return {
      usage: new Usage({ inputTokens: 1, outputTokens: 1 }),
      output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }],
    };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const response = await this.getResponse(request);
    yield { type: 'response_started' };
    yield { type: 'response_done', response: { id: 'echo', usage: response.usage, output: response.output } };
  }
}
