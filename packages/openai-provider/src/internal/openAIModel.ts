import type OpenAI from 'openai';
import type { ModelRequest, ModelRetryAdvice, ModelRetryAdviceRequest } from '@baton/types';
import type { OpenAIApi } from '../openaiProviderError.js';
import { clientOf, type OpenAIClientSource } from './clientSource.js';
import { callWithRetry } from './callWithRetry.js';
import { readStream } from './readStream.js';
import { openAIRetryAdvice } from './retryAdvice.js';
import { resolveTimeout } from './retryPolicy.js';
import { withResponse } from './withResponse.js';

/** What a request to the `openai` client is sent with: the attempt's signal, the client's own retries off. */
export interface AttemptOptions {
  signal: AbortSignal;
  maxRetries: 0;
}

/**
 * What the Chat Completions and Responses models share: the client (or the function making it)
 * and model name, the retry advice, and how a request is sent: one attempt per `callWithRetry`
 * try (the client's own retries off), the request id read back, and a streamed answer read with
 * the idle timeout, closing the connection on abort, failure or an early stop.
 */
export abstract class OpenAIModel {
  readonly #client: OpenAIClientSource;
  readonly #model: string;
  readonly #api: OpenAIApi;

  protected constructor(client: OpenAIClientSource, model: string, api: OpenAIApi) {
    this.#client = client;
    this.#model = model;
    this.#api = api;
  }

  /** The model name sent in each request. */
  get model(): string {
    return this.#model;
  }

  get modelName(): string {
    return this.#model;
  }

  /** Advice for `modelSettings.retry.policy`; see `retryPolicies.providerSuggested()`. */
  getRetryAdvice(args: ModelRetryAdviceRequest): ModelRetryAdvice | undefined {
    return openAIRetryAdvice(args);
  }

  /**
   * The client (or the function that makes it), for transports that reach the API another way.
   * @internal
   */
  protected get _clientSource(): OpenAIClientSource {
    return this.#client;
  }

  /** One request, retried per `modelSettings.retry`: its data and request id. */
  protected _send(request: ModelRequest, create: (client: OpenAI, options: AttemptOptions) => unknown): Promise<{ data: unknown; requestId: string | undefined }> {
    return callWithRetry(async (signal) => withResponse(create(await clientOf(this.#client), { signal, maxRetries: 0 })), {
      api: this.#api,
      settings: request.modelSettings,
      signal: request.signal,
    });
  }

  /** A streamed request, retried until it opens; its events, read as `readStream` reads them. */
  protected async _openStream<T>(
    request: ModelRequest,
    create: (client: OpenAI, options: AttemptOptions) => unknown,
  ): Promise<{ events: AsyncGenerator<T, void, undefined>; requestId: string | undefined }> {
    const opened = await callWithRetry(
      async (signal) => {
        const controller = new AbortController();
        const client = await clientOf(this.#client);
        const { data, requestId } = await withResponse(create(client, { signal: AbortSignal.any([signal, controller.signal]), maxRetries: 0 }));
        return { stream: data as AsyncIterable<T>, requestId, controller };
      },
      { api: this.#api, settings: request.modelSettings, signal: request.signal },
    );
    const events = readStream(opened.stream, {
      api: this.#api,
      signal: request.signal,
      abort: () => opened.controller.abort(),
      idleTimeoutMs: resolveTimeout(request.modelSettings),
      requestId: opened.requestId,
    });
    return { events, requestId: opened.requestId };
  }
}
