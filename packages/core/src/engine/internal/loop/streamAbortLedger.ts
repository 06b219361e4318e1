import type { AgentInputItem, ModelRequest, ModelStreamEvent, ToolCaller } from '@baton/types';
import { randomUuid } from '../../../definitions/internal/uuid.js';

type Raw = Record<string, unknown>;
type OwedCall = { callId: string; caller?: ToolCaller };
type OwedFunctionCall = OwedCall & { name: string; namespace?: string };

/**
 * The calls a streamed model response has made so far that no output answers yet. When the stream
 * is aborted, a server-managed conversation (`conversationId` / `previousResponseId`) already holds
 * those calls: the server refuses the next request until each has an output, so the run sends them
 * one, marked incomplete (`aborted`). Only calls this process answers are owed: function, local
 * shell, apply-patch calls and programs without their output. Fed every raw event of one model call.
 */
export class StreamAbortLedger {
  /** The streamed response's id, once the provider has said it. */
  responseId: string | undefined;
  readonly #functions = new Map<string, OwedFunctionCall>();
  readonly #shells = new Map<string, OwedCall>();
  readonly #patches = new Map<string, OwedCall>();
  /** A program's call id → the id its output item will carry. */
  readonly #programs = new Map<string, string>();

  observe(event: ModelStreamEvent): void {
    if (event.type === 'response_done') {
      // A finished response is the normal path: its calls are answered by the turn.
      this.#clear();
      if (typeof event.response.id === 'string') this.responseId = event.response.id;
      return;
    }
    if (event.type !== 'model' || !isRaw(event.event)) return;
    const raw = event.event;
    if (raw.type === 'response.created' && isRaw(raw.response) && typeof raw.response.id === 'string') {
      this.responseId = raw.response.id;
      return;
    }
    if (!isRaw(raw.item) || typeof raw.item.call_id !== 'string') return;
    const item = raw.item;
    const callId = raw.item.call_id;
    if (raw.type === 'response.output_item.added') {
      if (item.type === 'program_output' && typeof item.id === 'string') this.#programs.set(callId, item.id);
      return;
    }
    if (raw.type !== 'response.output_item.done') return;
    const caller = callerOf(item);
    const owed: OwedCall = caller ? { callId, caller } : { callId };
    switch (item.type) {
      case 'program':
        if (!this.#programs.has(callId)) this.#programs.set(callId, `prog_out_${randomUuid().replace(/-/g, '')}`);
        return;
      case 'program_output':
        this.#programs.delete(callId);
        return;
      case 'function_call':
        this.#functions.set(callId, {
          ...owed,
          name: typeof item.name === 'string' ? item.name : callId,
          ...(typeof item.namespace === 'string' ? { namespace: item.namespace } : {}),
        });
        return;
      case 'shell_call':
        // A hosted shell (a container environment) runs on the provider, which answers it itself.
        if (!isRaw(item.environment) || item.environment.type === 'local') this.#shells.set(callId, owed);
        return;
      case 'apply_patch_call':
        this.#patches.set(callId, owed);
        return;
      case 'function_call_output':
        this.#functions.delete(callId);
        return;
      case 'shell_call_output':
        this.#shells.delete(callId);
        return;
      case 'apply_patch_call_output':
        this.#patches.delete(callId);
        return;
    }
  }

  /** Whether any call is still owed an output. */
  get owes(): boolean {
    return this.#functions.size + this.#shells.size + this.#patches.size + this.#programs.size > 0;
  }

  /** The outputs that settle every owed call as aborted, in the order: functions, shells, patches, programs. */
  settlingInput(): AgentInputItem[] {
    const withCaller = (call: OwedCall) => (call.caller ? { caller: call.caller } : {});
    return [
      ...Array.from(this.#functions.values(), (call): AgentInputItem => ({
        type: 'function_call_result',
        name: call.name,
        ...(call.namespace !== undefined ? { namespace: call.namespace } : {}),
        callId: call.callId,
        status: 'incomplete',
        output: { type: 'text', text: 'aborted' },
        ...withCaller(call),
      })),
      ...Array.from(this.#shells.values(), (call): AgentInputItem => ({
        type: 'shell_call_output',
        callId: call.callId,
        status: 'incomplete',
        output: [{ stdout: '', stderr: 'aborted', outcome: { type: 'timeout' } }],
        ...withCaller(call),
      })),
      ...Array.from(this.#patches.values(), (call): AgentInputItem => ({
        type: 'apply_patch_call_output',
        callId: call.callId,
        status: 'failed',
        output: 'aborted',
        ...withCaller(call),
      })),
      ...Array.from(this.#programs, ([callId, id]): AgentInputItem => ({ type: 'program_output', id, callId, status: 'incomplete', output: 'aborted' })),
    ];
  }

  /**
   * The response the settling request continues: a conversation chains itself (the request's own
   * `previousResponseId`, if any); otherwise the aborted response, which the server did store.
   */
  previousResponseId(request: ModelRequest): string | undefined {
    if (request.conversationId) return request.previousResponseId;
    return this.responseId ?? request.previousResponseId;
  }

  /** The owed calls are answered (by `response`, whose id the chain continues from). */
  settled(responseId: string | undefined): void {
    this.#clear();
    if (responseId) this.responseId = responseId;
  }

  #clear(): void {
    this.#functions.clear();
    this.#shells.clear();
    this.#patches.clear();
    this.#programs.clear();
  }
}

function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null;
}

function callerOf(item: Raw): ToolCaller | undefined {
  const caller = item.caller;
  if (!isRaw(caller)) return undefined;
  if (caller.type === 'direct') return { type: 'direct' };
  if (caller.type === 'program' && typeof caller.caller_id === 'string') return { type: 'program', callerId: caller.caller_id };
  return undefined;
}
