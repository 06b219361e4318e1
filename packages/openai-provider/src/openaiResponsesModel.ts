import type OpenAI from 'openai';
import { clientOf, type OpenAIClientSource } from './internal/clientSource.js';
import type { Model, ModelRequest, ModelResponse, ModelRetryAdvice, ModelRetryAdviceRequest, ModelStreamEvent } from '@baton/types';
import { openAIRetryAdvice } from './internal/retryAdvice.js';
import { callWithRetry } from './internal/callWithRetry.js';
import { readStream } from './internal/readStream.js';
import { resolveTimeout } from './internal/retryPolicy.js';
import { buildResponsesCreateRequest, type ResponsesCreateRequest } from './internal/responses/requestBody.js';
import { checkResponseObject, toModelResponse, unsuccessfulResponseError } from './internal/responses/responseResult.js';
import { responsesStreamEvents } from './internal/responses/streamEvents.js';
import { withResponse } from './internal/withResponse.js';

/**
 * A model on the OpenAI Responses API (`POST /v1/responses`), the default API. Protocol items,
 * tools, handoffs (as function tools), structured output (`text.format`), settings,
 * `previousResponseId` and `conversationId` map to the request; the response output, usage
 * (cached and reasoning tokens included) and request id map back. Failures throw
 * `OpenAIProviderError`; retryable ones are retried per `modelSettings.retry`.
 */
export class OpenAIResponsesModel implements Model {
  readonly #client: OpenAIClientSource;
  readonly #model: string;

  /** `client`: an `openai` client, or a function that makes one (called on the first request). */
  constructor(client: OpenAIClientSource, model: string) {
    this.#client = client;
    this.#model = model;
  }

  /** The model name sent in each request. */
  get model(): string {
    return this.#model;
  }

  /**
   * The client (or the function that makes it), for transports that reach the API another way.
   * @internal
   */
  protected get _clientSource(): OpenAIClientSource {
    return this.#client;
  }

  /** For traces: a `response` span (the response id) per call, as the reference's. */
  get traceSpanType(): 'response' {
    return 'response';
  }

  get modelName(): string {
    return this.#model;
  }

  /** Advice for `modelSettings.retry.policy`; see `retryPolicies.providerSuggested()`. */
  getRetryAdvice(args: ModelRetryAdviceRequest): ModelRetryAdvice | undefined {
    return openAIRetryAdvice(args);
  }

  /**
   * The request `getResponse` / `getStreamedResponse` send: its body (`requestData`) and the
   * headers and query `providerData` adds. Internal (the reference's seam for subclasses and
   * tests); its shape may change.
   * @internal
   */
  _buildResponsesCreateRequest(request: ModelRequest, stream: boolean): ResponsesCreateRequest {
    return buildResponsesCreateRequest(this.#model, request, stream);
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const built = this._buildResponsesCreateRequest(request, false);
    const body = built.requestData;
    const { data, requestId } = await callWithRetry(
      async (signal) =>
        withResponse(
          (await clientOf(this.#client)).responses.create(body as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming, { signal, maxRetries: 0, ...transportOptions(built) }),
        ),
      { api: 'responses', settings: request.modelSettings, signal: request.signal },
    );
    const response = checkResponseObject(data, requestId);
    const failure = unsuccessfulResponseError(response, requestId);
    if (failure !== undefined) throw failure;
    return toModelResponse(response, requestId, request.modelSettings.preserveRawUsage);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const built = this._buildResponsesCreateRequest(request, true);
    const body = built.requestData;
    const opened = await callWithRetry(
      async (signal) => {
        const controller = new AbortController();
        const client = await clientOf(this.#client);
        const { data, requestId } = await withResponse(
          client.responses.create(body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming, {
            signal: AbortSignal.any([signal, controller.signal]),
            maxRetries: 0,
            ...transportOptions(built),
          }),
        );
        return { stream: data as AsyncIterable<unknown>, requestId, controller };
      },
      { api: 'responses', settings: request.modelSettings, signal: request.signal },
    );
    const events = readStream(opened.stream, {
      api: 'responses',
      signal: request.signal,
      abort: () => opened.controller.abort(),
      idleTimeoutMs: resolveTimeout(request.modelSettings),
      requestId: opened.requestId,
    });
    yield* responsesStreamEvents(events, { requestId: opened.requestId, preserveRawUsage: request.modelSettings.preserveRawUsage });
  }
}

/** The `openai` request options for `providerData`'s `extra_headers` / `extra_query`. */
function transportOptions(built: ResponsesCreateRequest): { headers?: Record<string, string | null>; query?: Record<string, unknown> } {
  const out: { headers?: Record<string, string | null>; query?: Record<string, unknown> } = {};
  if (built.transportExtraHeaders) out.headers = built.transportExtraHeaders as Record<string, string | null>;
  if (built.transportExtraQuery) out.query = built.transportExtraQuery;
  return out;
}
