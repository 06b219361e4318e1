/**
 * The model APIs the fake server speaks: which route is which API, and how each API renders a
 * scripted turn (JSON, streamed events) and an error.
 */
import { anthropicErrorBody, anthropicEvents, anthropicFailure, anthropicMessage } from './anthropicWire.js';
import { chatChunks, chatCompletion } from './chatCompletionsWire.js';
import { geminiChunks, geminiErrorBody, geminiFailure, geminiResponse } from './geminiWire.js';
import { responsesEvents, responsesObject } from './responsesWire.js';
import type { SseFlavour } from './sseWriter.js';
import type { FakeRequestBody, FakeResponseTurn } from './turns.js';
import type { IdSource } from './wireUtils.js';

type Json = Record<string, unknown>;

/** The model API a request called. */
export type FakeApi = 'openai-responses' | 'openai-chat-completions' | 'anthropic-messages' | 'gemini-generate-content';

/** A request's route, matched to an API. */
export interface FakeRoute {
  readonly api: FakeApi;
  /** The model named in the path (Gemini); the other APIs name it in the body. */
  readonly model?: string;
  /** The route itself asks for a stream (Gemini's `:streamGenerateContent`). */
  readonly streamRoute?: boolean;
  /** `?alt=sse`: without it Gemini's streaming route answers one JSON array of chunks. */
  readonly sse?: boolean;
}

// `@ai-sdk/google` posts to `${baseURL}/models/{model}:…`, its default base URL ending in `/v1beta`;
// the stable `/v1` version has the same routes.
const GEMINI_ROUTE = /^\/(?:v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The API at `path`, or undefined when no model API lives there. */
export function matchRoute(path: string, query: URLSearchParams): FakeRoute | undefined {
  if (path === '/v1/responses') return { api: 'openai-responses' };
  if (path === '/v1/chat/completions') return { api: 'openai-chat-completions' };
  if (path === '/v1/messages') return { api: 'anthropic-messages' };
  const gemini = GEMINI_ROUTE.exec(path);
  if (gemini === null) return undefined;
  return { api: 'gemini-generate-content', model: decodeURIComponent(gemini[1]!), streamRoute: gemini[2] === 'streamGenerateContent', sse: query.get('alt') === 'sse' };
}

/** What a renderer is given about the request besides the turn. */
export interface RenderRequest {
  readonly body: FakeRequestBody;
  /** The model, from the path or the body. */
  readonly model: string;
}

export interface ApiRenderer {
  readonly flavour: SseFlavour;
  /** The response header carrying the request id, if the API sends one. */
  readonly requestIdHeader?: string;
  /** An error to answer instead of the turn (a `failed` turn where the API has no failed status), or undefined. */
  failure(turn: FakeResponseTurn, streaming: boolean): { status: number; body: Json } | undefined;
  json(turn: FakeResponseTurn, request: RenderRequest, ids: IdSource): Json;
  events(turn: FakeResponseTurn, request: RenderRequest, ids: IdSource): Json[];
  /** The API's error body for a status; `code` is used where the API has one (OpenAI). */
  errorBody(status: number, message: string, code?: string | null): Json;
}

function openAIErrorBody(status: number, message: string, code: string | null = null): Json {
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code } };
}

const OPENAI_FAILED = { code: 'server_error', message: 'The model failed to produce a response.' };

export const RENDERERS: Record<FakeApi, ApiRenderer> = {
  'openai-responses': {
    flavour: 'responses',
    requestIdHeader: 'x-request-id',
    failure: () => undefined, // the response object carries `status: 'failed'`
    json: (turn, request, ids) => responsesObject(turn, request.body, ids),
    events: (turn, request, ids) => responsesEvents(turn, request.body, ids),
    errorBody: openAIErrorBody,
  },
  'openai-chat-completions': {
    flavour: 'chat',
    requestIdHeader: 'x-request-id',
    failure: (turn) => {
      if (turn.status !== 'failed') return undefined;
      const error = turn.error ?? OPENAI_FAILED;
      return { status: 500, body: openAIErrorBody(500, error.message, error.code) };
    },
    json: (turn, request, ids) => chatCompletion(turn, request.body, ids),
    events: (turn, request, ids) => chatChunks(turn, request.body, ids),
    errorBody: openAIErrorBody,
  },
  'anthropic-messages': {
    flavour: 'anthropic',
    requestIdHeader: 'request-id',
    failure: (turn, streaming) => (turn.status === 'failed' && !streaming ? anthropicFailure(turn) : undefined),
    json: (turn, request, ids) => anthropicMessage(turn, request.body, ids),
    events: (turn, request, ids) => anthropicEvents(turn, request.body, ids),
    errorBody: anthropicErrorBody,
  },
  'gemini-generate-content': {
    flavour: 'gemini',
    failure: (turn, streaming) => (turn.status === 'failed' && !streaming ? geminiFailure(turn) : undefined),
    json: (turn, request, ids) => geminiResponse(turn, request.model, ids),
    events: (turn, request, ids) => geminiChunks(turn, request.model, ids),
    errorBody: geminiErrorBody,
  },
};
