import type { ModelRequest, ModelResponse, ModelStreamEvent } from '@baton/types';
import { UserError } from '@baton/types';
import { OpenAIResponsesModel } from '../../openaiResponsesModel.js';
import { OpenAIProviderError } from '../../openaiProviderError.js';
import { clientOf, type OpenAIClientSource } from '../../internal/clientSource.js';
import { callWithRetry } from '../../internal/callWithRetry.js';
import { isRecord, type Json } from '../../internal/json.js';
import { resolveTimeout } from '../../internal/retryPolicy.js';
import type { ResponsesCreateRequest } from '../../internal/responses/requestBody.js';
import { ResponsesWebSocketConnection, abortedError } from '../../internal/websocket/responsesWebSocketConnection.js';
import { responsesWebSocketURL, webSocketHeaders } from '../../internal/websocket/handshake.js';
import { MULTI_AGENT_BETA, hostedUsage, isTerminalEvent, multiAgentFields, responseCreateFrame } from '../../internal/hostedMultiAgent/hostedItems.js';
import { HostedResponse } from '../../internal/hostedMultiAgent/hostedResponse.js';
import { hostedModelResponse, hostedStreamEvents, type HostedTurnEnd } from '../../internal/hostedMultiAgent/hostedStream.js';
import { checkHostedMultiAgentConfig, type HostedMultiAgentConfig } from './config.js';

interface Connection {
  readonly socket: ResponsesWebSocketConnection;
  /** The URL and handshake headers the socket was opened with. */
  readonly identity: string;
}

/**
 * Experimental: the Responses API with the service's hosted multi-agent orchestration
 * (`multi_agent: { enabled: true }`, beta `responses_multi_agent=v1`). The service runs its own
 * subagents inside one response; when one of them calls a local function tool, the call comes back
 * to the run loop as a turn of its own, and its output is injected into the still-open response
 * (`response.inject`). That needs one persistent Responses WebSocket, owned by this model: call
 * `close()` when done. The run loop sees the calls and the root agent's final answer; the agents'
 * collaboration items and subagent messages stay raw model events (`getHostedAgentMetadata` reads
 * who produced one). One request at a time per instance; a hosted response waiting for local
 * outputs is resumed with the same instance.
 */
export class OpenAIHostedMultiAgentModel extends OpenAIResponsesModel {
  readonly config: HostedMultiAgentConfig;
  #connection: Connection | undefined;
  #active: { response: HostedResponse; identity: string } | undefined;
  #busy = false;

  constructor(client: OpenAIClientSource, model: string, config?: HostedMultiAgentConfig) {
    super(client, model);
    this.config = checkHostedMultiAgentConfig(config);
  }

  /** The Responses request with the hosted fields (`multi_agent`); refuses handoffs, a reasoning summary and `max_tool_calls`. @internal */
  override _buildResponsesCreateRequest(request: ModelRequest, stream: boolean): ResponsesCreateRequest {
    const built = super._buildResponsesCreateRequest(request, stream);
    return { ...built, requestData: { ...built.requestData, ...multiAgentFields(request, built.requestData, this.config), stream } };
  }

  override async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const turn = this.#turn(request);
    while (true) {
      const next = await turn.next();
      if (next.done === true) return hostedModelResponse(next.value, request.modelSettings.preserveRawUsage);
    }
  }

  override async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    yield* hostedStreamEvents(this.#turn(request), request.modelSettings.preserveRawUsage);
  }

  /** Closes the model's WebSocket and forgets a hosted response that was waiting for local outputs. */
  async close(): Promise<void> {
    this.#active = undefined;
    this.#dropConnection();
  }

  /**
   * One run loop turn on the socket: a new response (`response.create`), or the waiting one resumed
   * (injection or continuation). Yields the service's events up to a boundary or the response's end.
   */
  async *#turn(request: ModelRequest): AsyncGenerator<Json, HostedTurnEnd> {
    if (this.#busy) throw new UserError('OpenAIHostedMultiAgentModel does not support concurrent requests on one model instance.');
    this.#busy = true;
    const resuming = this.#active !== undefined;
    let sent = false;
    let received = false;
    let settled = false;
    const signal = request.signal;
    try {
      const built = this._buildResponsesCreateRequest(request, true);
      const requestData = built.requestData;
      const timeoutMs = resolveTimeout(request.modelSettings);
      const socket = await this.#socketFor(built, request);
      const send = async (frame: Json) => {
        if (signal?.aborted) throw abortedError();
        sent = true;
        await socket.send(JSON.stringify(frame));
      };
      let hosted: HostedResponse;
      if (this.#active !== undefined) {
        hosted = this.#active.response;
        await send(hosted.resumeFrame(requestData));
      } else {
        hosted = new HostedResponse(requestData);
        this.#active = { response: hosted, identity: this.#connection?.identity ?? '' };
        await send(responseCreateFrame(requestData));
      }
      while (true) {
        const event = await readEvent(socket, timeoutMs, signal);
        received = true;
        hosted.observe(event);
        if (!isTerminalEvent(event.type)) yield event;
        const boundary = hosted.takeBoundary();
        if (boundary !== undefined) {
          settled = true;
          return { kind: 'boundary', response: boundary };
        }
        if (hosted.terminal === undefined || hosted.injecting) continue;
        if (hosted.hasCarriedOutputs) {
          await send(hosted.continuationFrame(requestData, []));
          continue;
        }
        const terminal = hosted.terminal;
        const response = isRecord(terminal.response) ? terminal.response : { id: hosted.responseId ?? '', output: [] };
        this.#active = undefined;
        settled = true;
        return { kind: 'terminal', event: terminal, response, finalResponse: hosted.finalResponse(response), usage: hostedUsage([...hosted.earlierUsages, response.usage]) };
      }
    } catch (error) {
      settled = true;
      // Once a frame may have reached the service, the request is not replayed, and the response is given up.
      if (sent || received) {
        if (isRecord(error)) {
          error.unsafeToReplay = true;
          if (received) error.responseStarted = true;
        }
        await this.close();
      } else if (!resuming) {
        await this.close();
      }
      throw error;
    } finally {
      // A consumer that stopped reading before the turn ended leaves a response nobody resumes.
      if (!settled) await this.close();
      this.#busy = false;
    }
  }

  /** The model's socket for this request: kept while open and opened with the same URL and headers. */
  async #socketFor(built: ResponsesCreateRequest, request: ModelRequest): Promise<ResponsesWebSocketConnection> {
    if (request.signal?.aborted) throw abortedError();
    const client = await clientOf(this._clientSource);
    const url = responsesWebSocketURL(client.baseURL, built.transportExtraQuery);
    const headers = { ...webSocketHeaders(client, built.transportExtraHeaders), 'OpenAI-Beta': MULTI_AGENT_BETA };
    const identity = JSON.stringify([url, Object.entries(headers).sort(([a], [b]) => a.localeCompare(b))]);
    if (this.#active !== undefined && this.#active.identity !== identity) {
      throw new UserError('An active hosted response must be resumed with the same WebSocket transport headers and query.');
    }
    if (this.#connection?.identity === identity && this.#connection.socket.isReusable()) return this.#connection.socket;
    this.#dropConnection();
    // Opening the socket sends nothing, so it is retried per `modelSettings.retry`.
    const socket = await callWithRetry((attemptSignal) => ResponsesWebSocketConnection.connect(url, headers, attemptSignal, undefined), {
      api: 'responses',
      settings: request.modelSettings,
      signal: request.signal,
    });
    this.#connection = { socket, identity };
    if (this.#active !== undefined) this.#active = { ...this.#active, identity };
    return socket;
  }

  #dropConnection(): void {
    this.#connection?.socket.close();
    this.#connection = undefined;
  }
}

/** The next service event: a JSON frame, within `timeoutMs`; a closed socket or an abort ends the turn with an error. */
async function readEvent(socket: ResponsesWebSocketConnection, timeoutMs: number | undefined, signal: AbortSignal | undefined): Promise<Json> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stops = new Promise<never>((_, reject) => {
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => reject(new OpenAIProviderError({ reason: 'timeout', api: 'responses', message: `No hosted Multi-agent WebSocket event within ${timeoutMs}ms.` })), timeoutMs);
    }
    onAbort = () => reject(abortedError());
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const frame = await Promise.race([socket.next(), stops]);
    if (signal?.aborted) throw abortedError();
    if (frame === null) {
      throw new OpenAIProviderError({
        reason: 'stream_interrupted',
        api: 'responses',
        message: 'The hosted Multi-agent WebSocket closed before the response ended.',
        ...(socket.failure === undefined ? {} : { cause: socket.failure }),
      });
    }
    let event: unknown;
    try {
      event = JSON.parse(frame);
    } catch (error) {
      throw new OpenAIProviderError({ reason: 'malformed_stream', api: 'responses', message: 'A hosted Multi-agent WebSocket frame is not JSON.', cause: error });
    }
    if (!isRecord(event)) throw new OpenAIProviderError({ reason: 'malformed_stream', api: 'responses', message: 'A hosted Multi-agent WebSocket frame is not a JSON object.' });
    return event;
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}
