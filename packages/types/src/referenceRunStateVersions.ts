import { RunStateError } from './runStateError.js';

/**
 * What each schema version of `@openai/agents`' run state may carry. A state that carries
 * something its own version could not have written (tool_search items in 1.7, a sandbox session
 * envelope newer than its schema, ...) is refused as the reference refuses it, in its words, before
 * anything of it is used.
 */

type Json = Record<string, unknown>;

/** The schema version `@openai/agents` 0.20.0 writes: the one a refused state should be rewritten with. */
export const REFERENCE_CURRENT_SCHEMA_VERSION = '1.22';

function atLeast(version: string, minor: number): boolean {
  return Number(version.slice(2)) >= minor;
}

function refuse(version: string, what: string, path: Array<string | number>): RunStateError {
  return new RunStateError(
    'unsupported_feature',
    `Run state schema version ${version} does not support ${what}. Please reserialize the run state with schema ${REFERENCE_CURRENT_SCHEMA_VERSION}.`,
    { path, foundVersion: version },
  );
}

function items(json: Json): Json[] {
  const generated = Array.isArray(json.generatedItems) ? (json.generatedItems as Json[]) : [];
  const last = json.lastProcessedResponse as Json | undefined;
  const processed = last && Array.isArray(last.newItems) ? (last.newItems as Json[]) : [];
  return [...generated, ...processed];
}

const TOOL_SEARCH = new Set(['tool_search_call_item', 'tool_search_output_item', 'tool_search_call', 'tool_search_output']);

/** Checks a reference state (schema `1.x`) against what its version could have written. */
export function checkReferenceVersionFeatures(json: Json): void {
  const version = json.$schemaVersion as string;
  if (!atLeast(version, 8)) {
    const found = items(json).findIndex((item) => TOOL_SEARCH.has(item.type as string) || TOOL_SEARCH.has((item.rawItem as Json | undefined)?.type as string));
    if (found !== -1) throw refuse(version, 'tool_search items', ['generatedItems', found]);
  }
  if (!atLeast(version, 14)) {
    const where = programmaticToolCallingAt(json);
    if (where !== undefined) throw refuse(version, 'Programmatic Tool Calling items', where);
  }
  const sandbox = json.sandbox as Json | undefined | null;
  if (sandbox && typeof sandbox === 'object') {
    const byAgent = (sandbox.sessionsByAgent ?? {}) as Record<string, Json>;
    const envelopes = [sandbox.sessionState as Json | undefined, ...Object.values(byAgent).map((entry) => entry?.sessionState as Json | undefined)];
    const supported = (envelopeVersion: unknown) =>
      envelopeVersion === 1 ||
      (envelopeVersion === 2 && atLeast(version, 15)) ||
      (envelopeVersion === 3 && atLeast(version, 18)) ||
      (envelopeVersion === 4 && atLeast(version, 19)) ||
      (envelopeVersion === 5 && atLeast(version, 20));
    const rejected = envelopes.find((envelope) => envelope && !supported(envelope.version));
    if (rejected) throw refuse(version, `sandbox session state version ${String(rejected.version)}`, ['sandbox']);
  }
  if (!atLeast(version, 16) && ('functionApprovals' in ((json.context ?? {}) as Json) || 'legacyFunctionApprovals' in ((json.context ?? {}) as Json))) {
    throw refuse(version, 'owner-scoped function approvals', ['context', 'functionApprovals']);
  }
  if (!atLeast(version, 17)) {
    const envelope = ['currentTurnDeferredSessionItemIndexes', 'currentTurnBlockedSessionStartIndex', 'currentTurnExecutedWithSessionBinding', 'currentTurnSessionInputItems', 'pendingSessionHistoryTransaction'].find(
      (key) => json[key] !== undefined,
    );
    const provenance = items(json).some((item) => item.type === 'tool_call_output_item' && item.executionStatus !== undefined);
    if (envelope !== undefined || provenance) throw refuse(version, 'output guardrail session persistence state', envelope ? [envelope] : ['generatedItems']);
  }
  if (!atLeast(version, 20)) {
    if ('pendingSessionWrite' in json || 'currentTurnSessionWriteCompactedItemCount' in json) throw refuse(version, 'pending Session writes', ['pendingSessionWrite']);
    if (json.currentResponseGeneratedItemOwnership !== undefined) throw refuse(version, 'current-response generated-item ownership', ['currentResponseGeneratedItemOwnership']);
  }
}

const PROGRAM_CALLABLE = new Set(['function_call', 'function_call_result', 'shell_call', 'shell_call_output', 'apply_patch_call', 'apply_patch_call_output', 'hosted_tool_call']);

/** A Programmatic Tool Calling item: a program or its output, or a call a program made (`caller.type: 'program'`). */
function isProgramItem(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Json;
  if (item.type === 'program' || item.type === 'program_output') return true;
  if (!PROGRAM_CALLABLE.has(item.type as string)) return false;
  const caller = item.caller as Json | undefined;
  return typeof caller === 'object' && caller !== null && caller.type === 'program' && typeof caller.callerId === 'string';
}

/** Where a state carries a Programmatic Tool Calling item (schema 1.14 added them), if it does. */
function programmaticToolCallingAt(json: Json): Array<string | number> | undefined {
  if (Array.isArray(json.originalInput)) {
    const i = (json.originalInput as unknown[]).findIndex(isProgramItem);
    if (i !== -1) return ['originalInput', i];
  }
  const responses = Array.isArray(json.modelResponses) ? (json.modelResponses as Json[]) : [];
  for (const [i, response] of [...responses, json.lastModelResponse as Json | undefined].entries()) {
    const output = response && Array.isArray(response.output) ? (response.output as unknown[]) : [];
    if (output.some(isProgramItem)) return i < responses.length ? ['modelResponses', i] : ['lastModelResponse'];
  }
  const found = items(json).findIndex((item) => isProgramItem(item.rawItem));
  return found === -1 ? undefined : ['generatedItems', found];
}
