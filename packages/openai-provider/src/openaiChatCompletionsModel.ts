import type OpenAI from 'openai';
import type { OpenAIClientSource } from './internal/clientSource.js';
import type { Model, ModelRequest, ModelResponse, ModelStreamEvent } from '@baton/types';
import { OpenAIModel } from './internal/openAIModel.js';
import { chatCompletionToResponse } from './internal/chat/chatOutput.js';
import { chatRequestBody } from './internal/chat/requestBody.js';
import { checkUnsupportedFeatures } from './internal/chat/unsupportedFeatures.js';
import { chatStreamEvents } from './internal/chat/streamEvents.js';

export interface OpenAIChatCompletionsModelOptions {
  /** Reject what Chat Completions cannot carry instead of ignoring it with a warning. */
  strictFeatureValidation?: boolean;
}

/**
 * A model on the Chat Completions API (`POST /v1/chat/completions`), for OpenAI and the many
 * compatible servers (vLLM, Ollama, LM Studio, gateways). Protocol items become messages, tools
 * and handoffs become function tools, structured output uses `response_format: json_schema`, and
 * streamed chunks are assembled into the final response (usage through
 * `stream_options.include_usage`). `previousResponseId` / `conversationId` need the Responses API
 * and are a `UserError` here. Failures throw `OpenAIProviderError`.
 */
export class OpenAIChatCompletionsModel extends OpenAIModel implements Model {
  readonly #strict: boolean;
  readonly #warned = new Set<string>();

  /**
   * `client`: an `openai` client, or a function that makes one (called on the first request).
   * `options.strictFeatureValidation`: what Chat Completions cannot carry (server-managed
   * conversation state, a stored prompt, Responses-only reasoning settings) is a `UserError`
   * instead of being ignored with a warning.
   */
  constructor(client: OpenAIClientSource, model: string, options: OpenAIChatCompletionsModelOptions = {}) {
    super(client, model, 'chat_completions');
    this.#strict = options.strictFeatureValidation ?? false;
  }

  #check(request: ModelRequest): void {
    checkUnsupportedFeatures(request, this.#strict, (kind, message) => {
      if (this.#warned.has(kind)) return;
      this.#warned.add(kind);
      console.warn(`[openai-agents:openai] ${message}`);
    });
  }

  /** How history is converted: strict or not, and warnings (each time, as the reference's) on the console. */
  get #messageOptions() {
    return { strict: this.#strict, warn: (message: string) => console.warn(`[openai-agents:openai] ${message}`) };
  }

  /** For traces: a `generation` span per call, as the reference's. */
  get traceSpanType(): 'generation' {
    return 'generation';
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.#check(request);
    const body = chatRequestBody(this.model, request, false, this.#messageOptions) as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    const { data, requestId } = await this._send(request, (client, options) => client.chat.completions.create(body, options));
    return chatCompletionToResponse(data, requestId, request.modelSettings.preserveRawUsage, this.#strict);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.#check(request);
    const body = chatRequestBody(this.model, request, true, this.#messageOptions) as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming;
    const { events, requestId } = await this._openStream(request, (client, options) => client.chat.completions.create(body, options));
    yield* chatStreamEvents(events, { requestId, preserveRawUsage: request.modelSettings.preserveRawUsage, strict: this.#strict });
  }
}
