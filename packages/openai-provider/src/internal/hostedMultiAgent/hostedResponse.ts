import { UserError } from '@baton/types';
import { isRecord, type Json } from '../json.js';
import { isTerminalEvent, responseCreateFrame } from './hostedItems.js';

/** What one event changed that the turn must act on. */
export type HostedEventEffect = 'none' | 'injected' | 'terminal';

/**
 * One hosted response across the run loop's turns. The service keeps a response open while local
 * function calls run: their calls reach the run loop one batch at a time (a "boundary"), and their
 * outputs go back into the same response (`response.inject`). When the response ended meanwhile
 * (or an injection came too late), the outputs continue it in a new `response.create` chained to
 * it. This object tracks that state; it sends nothing itself.
 */
export class HostedResponse {
  /** The response's id, from `response.created`. */
  responseId: string | undefined;
  /** The response object `response.created` carried (the shape of a boundary response). */
  #template: Json | undefined;
  /** The `response.create` that started the current response: its input, chaining and storage. */
  #startInput: unknown[];
  #startPreviousResponseId: string | undefined;
  #startStored: boolean;
  /** Calls the service waits for an output of. */
  readonly #awaited = new Set<string>();
  /** Calls already handed to the run loop. */
  readonly #handedOut = new Set<string>();
  /** Calls received and not yet handed out. */
  #queued: Json[] = [];
  /** Outputs the service could not inject (the response had completed): sent again in a continuation. */
  #carried: unknown[] = [];
  /** The injection sent and not yet answered, with the calls it answers. */
  #injecting: Set<string> | undefined;
  /** The terminal event, when the response ended before the run loop's outputs were injected. */
  terminal: Json | undefined;
  /** The raw usage of the responses this one continues (each a request). */
  readonly earlierUsages: unknown[] = [];
  /** A continuation frame sent and not yet acknowledged by `response.created` (resent after a reconnect). */
  #unacknowledged: Json | undefined;

  constructor(requestData: Json) {
    this.#startInput = Array.isArray(requestData.input) ? [...requestData.input] : [];
    this.#startPreviousResponseId = typeof requestData.previous_response_id === 'string' ? requestData.previous_response_id : undefined;
    this.#startStored = requestData.store !== false;
  }

  /**
   * The frame that resumes this response with a run loop request: the unacknowledged continuation,
   * or the injection of the awaited outputs, or (the response having ended) a continuation. A
   * request missing an awaited output is a `UserError` (nothing is sent).
   */
  resumeFrame(requestData: Json): Json {
    if (this.#unacknowledged !== undefined) return this.#unacknowledged;
    const outputs = awaitedOutputs(requestData, this.#awaited);
    const answered = new Set(outputs.map((output) => output.call_id as string));
    const missing = [...this.#awaited].filter((callId) => !answered.has(callId));
    if (missing.length > 0) {
      throw new UserError(
        `The hosted response is waiting for local function outputs for: ${missing.join(', ')}. Resume it with the same model instance and RunState.`,
      );
    }
    if (this.terminal !== undefined) return this.continuationFrame(requestData, outputs);
    if (outputs.length === 0 || this.responseId === undefined) {
      throw new UserError('The hosted response is waiting for local function outputs. Resume it with the same model instance and RunState.');
    }
    this.#injecting = answered;
    return { type: 'response.inject', response_id: this.responseId, input: outputs };
  }

  /** Records an event of the response; a failed injection or an `error` event throws. */
  observe(event: Json): HostedEventEffect {
    const type = event.type;
    if (type === 'response.created') {
      this.responseId = isRecord(event.response) && typeof event.response.id === 'string' ? event.response.id : undefined;
      this.#template = isRecord(event.response) ? event.response : undefined;
      this.#unacknowledged = undefined;
    } else if (type === 'response.output_item.done') {
      const item = event.item;
      if (isRecord(item) && item.type === 'function_call' && typeof item.call_id === 'string') {
        const callId = item.call_id;
        this.#awaited.add(callId);
        if (!this.#handedOut.has(callId) && !this.#queued.some((queued) => queued.call_id === callId)) this.#queued.push(item);
      }
    } else if (type === 'response.inject.created') {
      this.#settleInjection();
      return 'injected';
    } else if (type === 'response.inject.failed') {
      const error = isRecord(event.error) ? event.error : {};
      if (error.code !== 'response_already_completed') {
        this.#injecting = undefined;
        throw new Error(`Hosted Multi-agent response injection failed: ${JSON.stringify(event.error)}`);
      }
      if (Array.isArray(event.input)) this.#carried.push(...event.input);
      this.#settleInjection();
      return 'injected';
    } else if (isTerminalEvent(type)) {
      this.terminal = event;
      return 'terminal';
    } else if (type === 'error') {
      throw new Error(`Hosted Multi-agent WebSocket response failed: ${JSON.stringify(event)}`);
    }
    return 'none';
  }

  /** An injection is waiting for the service's answer. */
  get injecting(): boolean {
    return this.#injecting !== undefined;
  }

  /** Outputs the service refused because the response had completed: a continuation must carry them. */
  get hasCarriedOutputs(): boolean {
    return this.#carried.length > 0;
  }

  /**
   * The calls to hand to the run loop now, as a response object of their own (no usage: it is no
   * request), or undefined while none are queued or an injection is unanswered.
   */
  takeBoundary(): Json | undefined {
    if (this.#queued.length === 0 || this.#injecting !== undefined) return undefined;
    if (this.#template === undefined || this.responseId === undefined) {
      throw new Error('Hosted Multi-agent function call arrived before response.created.');
    }
    const calls = this.#queued;
    this.#queued = [];
    for (const call of calls) this.#handedOut.add(call.call_id as string);
    return { ...this.#template, id: this.responseId, status: 'completed', output: calls, usage: undefined };
  }

  /** The terminal response with the calls already handed out taken from its output. */
  finalResponse(terminalResponse: Json): Json {
    const output = Array.isArray(terminalResponse.output) ? terminalResponse.output : [];
    return {
      ...terminalResponse,
      output: output.filter((item) => !(isRecord(item) && item.type === 'function_call' && this.#handedOut.has(item.call_id as string))),
    };
  }

  /**
   * The `response.create` that continues the ended response with the carried and given outputs:
   * in the same conversation, or chained to the ended response when it was stored, or else with the
   * whole exchange as input. The state moves to that new response.
   */
  continuationFrame(requestData: Json, outputs: readonly unknown[]): Json {
    const ended = isRecord(this.terminal?.response) ? this.terminal.response : undefined;
    if (ended === undefined || typeof ended.id !== 'string') throw new Error('Hosted Multi-agent could not continue after a terminal response.');
    const input = [...this.#carried, ...outputs];
    if (input.length === 0) throw new Error('Hosted Multi-agent terminal response continuation requires function outputs.');
    this.earlierUsages.push(ended.usage);
    const stored = typeof ended.store === 'boolean' ? ended.store : this.#startStored;
    const frame = responseCreateFrame(requestData);
    if (frame.conversation != null) {
      frame.input = input;
      delete frame.previous_response_id;
    } else if (stored) {
      frame.input = input;
      frame.previous_response_id = ended.id;
    } else {
      frame.input = [...this.#startInput, ...(Array.isArray(ended.output) ? ended.output : []), ...input];
      if (this.#startPreviousResponseId !== undefined) frame.previous_response_id = this.#startPreviousResponseId;
      else delete frame.previous_response_id;
    }
    this.#startInput = [...(frame.input as unknown[])];
    this.#startPreviousResponseId = typeof frame.previous_response_id === 'string' ? frame.previous_response_id : undefined;
    this.#startStored = frame.store !== false;
    this.responseId = undefined;
    this.#template = undefined;
    this.#awaited.clear();
    this.#queued = [];
    this.#carried = [];
    this.#injecting = undefined;
    this.terminal = undefined;
    this.#unacknowledged = frame;
    return frame;
  }

  #settleInjection(): void {
    for (const callId of this.#injecting ?? []) this.#awaited.delete(callId);
    this.#injecting = undefined;
  }
}

/** The request's `function_call_output` items for the calls the response awaits. */
function awaitedOutputs(requestData: Json, awaited: ReadonlySet<string>): Json[] {
  if (!Array.isArray(requestData.input)) return [];
  return requestData.input.filter((item): item is Json => isRecord(item) && item.type === 'function_call_output' && typeof item.call_id === 'string' && awaited.has(item.call_id));
}
