import type OpenAI from 'openai';
import type { OpenAIClientSource } from './internal/clientSource.js';
import type { Model, ModelRequest, ModelResponse, ModelStreamEvent } from '@baton/types';
import { OpenAIModel } from './internal/openAIModel.js';
import { buildResponsesCreateRequest, type ResponsesCreateRequest } from './internal/responses/requestBody.js';
import { checkResponseObject, toModelResponse, unsuccessfulResponseError } from './internal/responses/responseResult.js';
import { responsesStreamEvents } from './internal/responses/streamEvents.js';

/**
 * A model on the OpenAI Responses API (`POST /v1/responses`), the default API. Protocol items,
 * tools, handoffs (as function tools), structured output (`text.format`), settings,
 * `previousResponseId` and `conversationId` map to the request; the response output, usage
 * (cached and reasoning tokens included) and request id map back. Failures throw
 * `OpenAIProviderError`; retryable ones are retried per `modelSettings.retry`.
 */
export class OpenAIResponsesModel extends OpenAIModel implements Model {
  /** `client`: an `openai` client, or a function that makes one (called on the first request). */
  constructor(client: OpenAIClientSource, model: string) {
    super(client, model, 'responses');
  }

  /** A stored prompt template may choose the model (see \`Model.supportsPromptModelSelection\`). */
  readonly supportsPromptModelSelection = true;

  /** For traces: a `response` span (the response id) per call, as the reference's. */
  get traceSpanType(): 'response' {
    return 'response';
  }

  /**
   * The request `getResponse` / `getStreamedResponse` send: its body (`requestData`) and the
   * headers and query `providerData` adds. Internal (the reference's seam for subclasses and
   * tests); its shape may change.
   * @internal
   */
  _buildResponsesCreateRequest(request: ModelRequest, stream: boolean): ResponsesCreateRequest {
    return buildResponsesCreateRequest(this.model, request, stream);
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const built = this._buildResponsesCreateRequest(request, false);
    const body = built.requestData as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming;
    const { data, requestId } = await this._send(request, (client, options) => client.responses.create(body, { ...options, ...transportOptions(built) }));
    const response = checkResponseObject(data, requestId);
    const failure = unsuccessfulResponseError(response, requestId);
    if (failure !== undefined) throw failure;
    return toModelResponse(response, requestId, request.modelSettings.preserveRawUsage);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const built = this._buildResponsesCreateRequest(request, true);
    const body = built.requestData as unknown as OpenAI.Responses.ResponseCreateParamsStreaming;
    const { events, requestId } = await this._openStream(request, (client, options) => client.responses.create(body, { ...options, ...transportOptions(built) }));
    yield* responsesStreamEvents(events, { requestId, preserveRawUsage: request.modelSettings.preserveRawUsage });
  }
}

/** The `openai` request options for `providerData`'s `extra_headers` / `extra_query`. */
function transportOptions(built: ResponsesCreateRequest): { headers?: Record<string, string | null>; query?: Record<string, unknown> } {
  const out: { headers?: Record<string, string | null>; query?: Record<string, unknown> } = {};
  if (built.transportExtraHeaders) out.headers = built.transportExtraHeaders as Record<string, string | null>;
  if (built.transportExtraQuery) out.query = built.transportExtraQuery;
  return out;
}
