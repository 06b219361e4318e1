import type OpenAI from 'openai';
import { clientOf, type OpenAIClientSource } from './internal/clientSource.js';
import type { Model, ModelRequest, ModelResponse, ModelRetryAdvice, ModelRetryAdviceRequest, ModelStreamEvent } from '@baton/types';
import { openAIRetryAdvice } from './internal/retryAdvice.js';
import { callWithRetry } from './internal/callWithRetry.js';
import { chatCompletionToResponse } from './internal/chat/chatOutput.js';
import { chatRequestBody } from './internal/chat/requestBody.js';
import { checkUnsupportedFeatures } from './internal/chat/unsupportedFeatures.js';

export interface OpenAIChatCompletionsModelOptions {
  /** Reject what Chat Completions cannot carry instead of ignoring it with a warning. */
  strictFeatureValidation?: boolean;
}
import { chatStreamEvents } from './internal/chat/streamEvents.js';
import { readStream } from './internal/readStream.js';
import { resolveTimeout } from './internal/retryPolicy.js';
import { withResponse } from './internal/withResponse.js';

/**
 * A model on the Chat Completions API (`POST /v1/chat/completions`), for OpenAI and the many
 * compatible servers (vLLM, Ollama, LM Studio, gateways). Protocol items become messages, tools
 * and handoffs become function tools, structured output uses `response_format: json_schema`, and
 * streamed chunks are assembled into the final response (usage through
 * `stream_options.include_usage`). `previousResponseId` / `conversationId` need the Responses API
 * and are a `UserError` here. Failures throw `OpenAIProviderError`.
 */
export class OpenAIChatCompletionsModel implements Model {
  readonly #client: OpenAIClientSource;
  readonly #model: string;
  readonly #strict: boolean;
  readonly #warned = new Set<string>();

  /**
   * `client`: an `openai` client, or a function that makes one (called on the first request).
   * `options.strictFeatureValidation`: what Chat Completions cannot carry (server-managed
   * conversation state, a stored prompt, Responses-only reasoning settings) is a `UserError`
   * instead of being ignored with a warning.
   */
  constructor(client: OpenAIClientSource, model: string, options: OpenAIChatCompletionsModelOptions = {}) {
    this.#client = client;
    this.#model = model;
    this.#strict = options.strictFeatureValidation ?? false;
  }

  #check(request: ModelRequest): void {
    checkUnsupportedFeatures(request, this.#strict, (kind, message) => {
      if (this.#warned.has(kind)) return;
      this.#warned.add(kind);
      console.warn(`[openai-agents:openai] ${message}`);
    });
  }

  /** The model name sent in each request. */
  get model(): string {
    return this.#model;
  }

  /** For traces: a `generation` span per call, as the reference's. */
  get traceSpanType(): 'generation' {
    return 'generation';
  }

  get modelName(): string {
    return this.#model;
  }

  /** Advice for `modelSettings.retry.policy`; see `retryPolicies.providerSuggested()`. */
  getRetryAdvice(args: ModelRetryAdviceRequest): ModelRetryAdvice | undefined {
    return openAIRetryAdvice(args);
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.#check(request);
    const body = chatRequestBody(this.#model, request, false, this.#strict);
    const { data, requestId } = await callWithRetry(
      async (signal) => withResponse((await clientOf(this.#client)).chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, { signal, maxRetries: 0 })),
      { api: 'chat_completions', settings: request.modelSettings, signal: request.signal },
    );
    return chatCompletionToResponse(data, requestId, request.modelSettings.preserveRawUsage, this.#strict);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.#check(request);
    const body = chatRequestBody(this.#model, request, true, this.#strict);
    const opened = await callWithRetry(
      async (signal) => {
        const controller = new AbortController();
        const client = await clientOf(this.#client);
        const { data, requestId } = await withResponse(
          client.chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsStreaming, {
            signal: AbortSignal.any([signal, controller.signal]),
            maxRetries: 0,
          }),
        );
        return { stream: data as AsyncIterable<unknown>, requestId, controller };
      },
      { api: 'chat_completions', settings: request.modelSettings, signal: request.signal },
    );
    const chunks = readStream(opened.stream, {
      api: 'chat_completions',
      signal: request.signal,
      abort: () => opened.controller.abort(),
      idleTimeoutMs: resolveTimeout(request.modelSettings),
      requestId: opened.requestId,
    });
    yield* chatStreamEvents(chunks, { requestId: opened.requestId, preserveRawUsage: request.modelSettings.preserveRawUsage, strict: this.#strict });
  }
}
