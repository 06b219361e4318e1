/**
 * Google's Gemini API (generativelanguage: `models/{model}:generateContent` and
 * `:streamGenerateContent`) for a scripted turn: the `GenerateContentResponse`, its streamed chunks,
 * and the error body.
 */
import type { FakeOutput, FakeResponseTurn, FakeUsage } from './turns.js';
import { parsedArguments, splitText, type IdSource } from './wireUtils.js';

type Json = Record<string, unknown>;

const FAILED = 'The model failed to produce a response.';

/**
 * The `usageMetadata` object. The neutral `outputTokens` counts reasoning, Gemini's
 * `candidatesTokenCount` does not (`thoughtsTokenCount` is apart); `promptTokenCount` includes
 * `cachedContentTokenCount`, as the neutral `inputTokens` includes `cachedTokens`.
 */
export function geminiUsage(usage: FakeUsage = {}): Json {
  const input = usage.inputTokens ?? 10;
  const output = usage.outputTokens ?? 5;
  const thoughts = usage.reasoningTokens ?? 0;
  return {
    promptTokenCount: input,
    candidatesTokenCount: Math.max(0, output - thoughts),
    totalTokenCount: input + output,
    ...(usage.cachedTokens === undefined ? {} : { cachedContentTokenCount: usage.cachedTokens }),
    ...(usage.reasoningTokens === undefined ? {} : { thoughtsTokenCount: usage.reasoningTokens }),
  };
}

/** One part per output piece (Gemini function calls have no ids: `id` only when the turn scripts a `callId`). */
function part(piece: FakeOutput, ids: IdSource): Json {
  switch (piece.type) {
    case 'message':
      return { text: piece.text };
    case 'refusal':
      return { text: piece.refusal };
    case 'function_call':
      return { functionCall: { ...(piece.callId === undefined ? {} : { id: piece.callId }), name: piece.name, args: parsedArguments(piece.arguments) } };
    case 'reasoning':
      return { text: piece.summary, thought: true, thoughtSignature: piece.signature ?? ids.next('sig') };
    case 'item':
      throw new Error('the Gemini API has no output items: script this turn for the Responses API.');
  }
}

/** `MAX_TOKENS` when incomplete, `SAFETY` when the output refuses, else `STOP` (tool calls included). */
function finish(turn: FakeResponseTurn): Json {
  if (turn.status === 'incomplete') return { finishReason: 'MAX_TOKENS' };
  if (!turn.output.some((piece) => piece.type === 'refusal')) return { finishReason: 'STOP' };
  return { finishReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] };
}

function response(parts: Json[], model: string, responseId: string, extra: Json = {}, candidateExtra: Json = {}): Json {
  return { candidates: [{ content: { parts, role: 'model' }, index: 0, ...candidateExtra }], ...extra, modelVersion: model, responseId };
}

/** The `GenerateContentResponse` for a turn (a `failed` turn is answered with an error instead, see `geminiFailure`). */
export function geminiResponse(turn: FakeResponseTurn, model: string, ids: IdSource): Json {
  const parts = turn.output.map((piece) => part(piece, ids));
  return response(parts, model, ids.next('resp'), { usageMetadata: geminiUsage(turn.usage) }, finish(turn));
}

/**
 * The chunks `streamGenerateContent` sends for a turn: text and thoughts split into `deltaChunks`
 * pieces (a thought's signature on its last piece), each function call whole; the last chunk carries
 * `finishReason` and `usageMetadata`. A `failed` turn ends with an `{ error }` chunk instead.
 */
export function geminiChunks(turn: FakeResponseTurn, model: string, ids: IdSource): Json[] {
  const responseId = ids.next('resp');
  const pieces = turn.stream?.deltaChunks ?? 2;
  const parts: Json[] = [];
  for (const piece of turn.output) {
    const whole = part(piece, ids);
    if (typeof whole.text !== 'string') {
      parts.push(whole);
      continue;
    }
    const texts = splitText(whole.text, pieces);
    texts.forEach((text, i) => {
      const { thoughtSignature, ...rest } = whole;
      parts.push({ ...rest, text, ...(i === texts.length - 1 && thoughtSignature !== undefined ? { thoughtSignature } : {}) });
    });
  }
  const chunks = parts.map((p) => response([p], model, responseId));
  if (turn.status === 'failed') {
    chunks.push({ error: { code: 500, message: turn.error?.message ?? FAILED, status: 'INTERNAL' } });
    return chunks;
  }
  const last = parts.length > 0 ? [parts.at(-1)!] : [];
  const final = response(last, model, responseId, { usageMetadata: geminiUsage(turn.usage) }, finish(turn));
  if (parts.length > 0) chunks[chunks.length - 1] = final;
  else chunks.push(final);
  return chunks;
}

/** The answer to a `failed` turn asked for as JSON: a 500 `INTERNAL` error. */
export function geminiFailure(turn: FakeResponseTurn): { status: number; body: Json } {
  return { status: 500, body: geminiErrorBody(500, turn.error?.message ?? FAILED) };
}

/** Google's RPC status name for an HTTP status (https://ai.google.dev/gemini-api/docs/troubleshooting). */
export function geminiErrorStatus(status: number): string {
  switch (status) {
    case 400:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 501:
      return 'UNIMPLEMENTED';
    case 503:
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  }
}

/** `{ error: { code, message, status } }`, the status name chosen by HTTP status. */
export function geminiErrorBody(status: number, message: string): Json {
  return { error: { code: status, message, status: geminiErrorStatus(status) } };
}
