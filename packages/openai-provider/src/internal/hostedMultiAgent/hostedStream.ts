import { Usage, type ModelResponse, type ModelStreamEvent } from '@baton/types';
import { OpenAIResponseError } from '../../openaiResponseError.js';
import { OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE } from '../../rawModelEvents.js';
import { isRecord, rest, type Json } from '../json.js';
import { snapshotRawUsage } from '@baton/types/internal';
import { fromResponsesOutput } from '../responses/outputItems.js';
import { unsuccessfulTerminal } from '../responses/responseResult.js';
import { responsesUsage } from '../usage.js';
import { ROOT_AGENT, isRootFinalMessage, runLoopOutput } from './hostedItems.js';

/** How a hosted turn ended: local calls to run (a boundary, no request of its own), or the response's end. */
export type HostedTurnEnd =
  | { readonly kind: 'boundary'; readonly response: Json }
  | { readonly kind: 'terminal'; readonly event: Json; readonly response: Json; readonly finalResponse: Json; readonly usage: Usage };

const RAW = { rawModelEventSource: OPENAI_RESPONSES_RAW_MODEL_EVENT_SOURCE };

/** A failed or incomplete hosted response is an `OpenAIResponseError`, as on the Responses model. */
function failureOf(end: HostedTurnEnd): OpenAIResponseError | undefined {
  if (end.kind !== 'terminal') return undefined;
  const terminal = unsuccessfulTerminal(end.response, typeof end.event.type === 'string' ? end.event.type : undefined);
  return terminal === undefined ? undefined : new OpenAIResponseError(terminal, 'responses', undefined, end.usage);
}

/** The run loop's view of a turn's end (`getResponse`): the stable output and the turn's usage. */
export function hostedModelResponse(end: HostedTurnEnd, preserveRawUsage: boolean | undefined): ModelResponse {
  const failure = failureOf(end);
  if (failure !== undefined) throw failure;
  if (end.kind === 'boundary') {
    return { usage: new Usage(), output: fromResponsesOutput(end.response.output), responseId: end.response.id as string, providerData: end.response };
  }
  const out: ModelResponse = {
    usage: end.usage,
    output: fromResponsesOutput(runLoopOutput(end.finalResponse.output as unknown[])),
    responseId: end.response.id as string,
    providerData: end.response,
  };
  if (preserveRawUsage === true) {
    const rawUsage = snapshotRawUsage(end.response.usage);
    if (rawUsage !== undefined) out.rawUsage = rawUsage;
  }
  return out;
}

/**
 * A hosted turn's events as model stream events: every service event as a raw `model` event (a
 * boundary is no service event, so none for it), `response_started` for `response.created`, text
 * deltas only of the root agent's final answer, and `response_done` with the stable output.
 */
export async function* hostedStreamEvents(turn: AsyncGenerator<Json, HostedTurnEnd>, preserveRawUsage: boolean | undefined): AsyncGenerator<ModelStreamEvent> {
  const itemsByIndex = new Map<number, unknown>();
  let finished = false;
  try {
    while (true) {
      const next = await turn.next();
      if (next.done === true) {
        finished = true;
        yield* endEvents(next.value, preserveRawUsage);
        return;
      }
      const event = next.value;
      if (event.type === 'response.output_item.added' && typeof event.output_index === 'number') itemsByIndex.set(event.output_index, event.item);
      if (event.type === 'response.created') {
        yield { type: 'response_started', providerData: { ...event } };
      } else if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') {
        const item = typeof event.output_index === 'number' ? itemsByIndex.get(event.output_index) : undefined;
        const agentName = isRecord(event.agent) ? event.agent.agent_name : undefined;
        if (isRootFinalMessage(item) && (agentName === undefined || agentName === ROOT_AGENT)) {
          const delta: ModelStreamEvent = { type: 'output_text_delta', delta: event.delta, providerData: rest(event, ['delta']) ?? {} };
          if (typeof event.item_id === 'string') delta.itemId = event.item_id;
          yield delta;
        }
      }
      yield { type: 'model', event, providerData: RAW };
    }
  } finally {
    // A reader that stops early ends the turn too (the model then closes its socket).
    if (!finished) await turn.return(undefined as never);
  }
}

function* endEvents(end: HostedTurnEnd, preserveRawUsage: boolean | undefined): Generator<ModelStreamEvent> {
  const failure = failureOf(end);
  if (failure !== undefined && end.kind === 'terminal') {
    yield { type: 'model', event: end.event, providerData: RAW };
    throw failure;
  }
  const response = end.response;
  const output = end.kind === 'boundary' ? fromResponsesOutput(response.output) : fromResponsesOutput(runLoopOutput(end.finalResponse.output as unknown[]));
  const usage = end.kind === 'boundary' ? { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 } : usageData(end.usage);
  const done: ModelStreamEvent = {
    type: 'response_done',
    response: { id: response.id as string, usage, output, providerData: rest(response, ['id', 'output', 'usage']) ?? {} },
    providerData: end.kind === 'terminal' ? (rest(end.event, ['response']) ?? {}) : { type: 'response.completed' },
  };
  if (preserveRawUsage === true && end.kind === 'terminal') {
    const rawUsage = snapshotRawUsage(response.usage);
    if (rawUsage !== undefined) done.response.rawUsage = rawUsage;
  }
  yield done;
  if (end.kind === 'terminal') yield { type: 'model', event: end.event, providerData: RAW };
}

/** A `Usage` as the plain data a stream event carries. */
function usageData(usage: Usage): ReturnType<typeof responsesUsage> {
  const data: ReturnType<typeof responsesUsage> = {
    requests: usage.requests,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    inputTokensDetails: usage.inputTokensDetails,
    outputTokensDetails: usage.outputTokensDetails,
  };
  if (usage.requestUsageEntries !== undefined) data.requestUsageEntries = usage.requestUsageEntries;
  return data;
}
