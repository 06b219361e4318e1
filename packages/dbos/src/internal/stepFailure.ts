import { ExternalFailure } from '@baton/core/internal';
import * as Cause from 'effect/Cause';
import {
  AgentsError,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  InvalidToolInputError,
  InvalidToolOutputError,
  MaxTurnsExceededError,
  ModelBehaviorError,
  ModelRefusalError,
  ModelStreamIdleTimeoutError,
  ModelTimeoutError,
  OutputGuardrailTripwireTriggered,
  RunStateError,
  SystemError,
  ToolCallError,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  ToolTimeoutError,
  UserError,
} from '@baton/types';
import { DurableRunError } from '../durableRunError.js';
import type { Json } from './workflowTypes.js';

/** A class of errors a step can fail with, rebuilt with its own prototype on replay. */
export type ErrorClass = abstract new (...args: any[]) => Error;

/**
 * Baton's error classes and JavaScript's own: a recorded failure of one of these comes back as that
 * class. `ExternalFailure` is core's wrapper of an error from code Baton does not own (a model, a
 * tool): the run hands its cause to the caller unchanged, so the wrapper must come back as itself.
 */
const KNOWN_CLASSES: readonly ErrorClass[] = [
  ExternalFailure,
  AgentsError,
  SystemError,
  MaxTurnsExceededError,
  ModelBehaviorError,
  ModelStreamIdleTimeoutError,
  InvalidToolInputError,
  ModelRefusalError,
  ModelTimeoutError,
  UserError,
  InvalidToolOutputError,
  RunStateError,
  GuardrailExecutionError,
  ToolCallError,
  ToolTimeoutError,
  InputGuardrailTripwireTriggered,
  OutputGuardrailTripwireTriggered,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  DurableRunError,
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
];

/** Marks an encoded error inside an encoded value (a field holding an error, a cause). */
const ERROR_KEY = '~batonError';
/** Fields never recorded: the run state core attaches when the run fails (rebuilt by the replay itself). */
const SKIPPED_FIELDS = new Set(['state']);
const MAX_DEPTH = 8;

interface EncodedError {
  /** The constructor names up the prototype chain, nearest first: the nearest known one is rebuilt. */
  readonly classes: string[];
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly cause?: Json;
  /** The error's own enumerable fields (`_tag`, `timeoutMs`, `error`, ...), as JSON. */
  readonly fields: { [key: string]: Json };
}

type EncodedReason = { readonly kind: 'fail'; readonly error: Json } | { readonly kind: 'die'; readonly defect: Json } | { readonly kind: 'interrupt' };

/** What a failed step records: its cause, each failure with its class and fields. */
export interface EncodedStepFailure {
  readonly batonStepFailure: readonly EncodedReason[];
}

/**
 * A step's failure as JSON, so a replay fails the same way: each reason of the cause (a typed
 * failure, a defect, an interruption), each error with its class (the nearest of Baton's and
 * JavaScript's error classes up its prototype chain, or one the worker registered), name, message,
 * stack and own fields. Values that are not JSON (functions, class instances) keep their JSON form
 * or are left out.
 */
export function encodeStepFailure(cause: Cause.Cause<unknown>): EncodedStepFailure {
  return {
    batonStepFailure: cause.reasons.map((reason): EncodedReason => {
      if (Cause.isFailReason(reason)) return { kind: 'fail', error: encodeValue(reason.error, 0) };
      if (Cause.isDieReason(reason)) return { kind: 'die', defect: encodeValue(reason.defect, 0) };
      return { kind: 'interrupt' };
    }),
  };
}

export function isEncodedStepFailure(value: unknown): value is EncodedStepFailure {
  return typeof value === 'object' && value !== null && Array.isArray((value as { batonStepFailure?: unknown }).batonStepFailure);
}

/** The cause a recorded failure stands for: the same reasons, each error rebuilt as its class with its fields. */
export function decodeStepFailure(encoded: EncodedStepFailure, classes: ReadonlyMap<string, ErrorClass> = knownClasses()): Cause.Cause<unknown> {
  return Cause.fromReasons(
    encoded.batonStepFailure.map((reason) => {
      if (reason.kind === 'fail') return Cause.makeFailReason(decodeValue(reason.error, classes));
      if (reason.kind === 'die') return Cause.makeDieReason(decodeValue(reason.defect, classes));
      return Cause.makeInterruptReason();
    }),
  );
}

/**
 * Carries a step's own failure through DBOS, so the run sees the typed error (or interruption) it
 * had: live, the cause itself; on replay, the cause rebuilt from `data` (DBOS records an error's
 * name, message and enumerable fields; `data` holds the cause as a JSON string, which any of DBOS's
 * serializations keeps as it is).
 */
export class StepFailed extends Error {
  declare readonly failure: Cause.Cause<unknown>;
  readonly data: string;

  constructor(failure: Cause.Cause<unknown>) {
    super(Cause.pretty(failure));
    this.name = 'StepFailed';
    Object.defineProperty(this, 'failure', { value: failure, enumerable: false });
    this.data = JSON.stringify(encodeStepFailure(failure));
  }
}

/** The cause a step failed with: the live one, or the one DBOS recorded (a replay), or none (DBOS's or the database's own error). */
export function stepFailureOf(error: unknown, classes: ReadonlyMap<string, ErrorClass>): Cause.Cause<unknown> | undefined {
  if (error instanceof StepFailed) return error.failure;
  const data = (error as { data?: unknown } | null)?.data;
  if (typeof data !== 'string' || (error as { name?: unknown }).name !== 'StepFailed') return undefined;
  try {
    const encoded: unknown = JSON.parse(data);
    return isEncodedStepFailure(encoded) ? decodeStepFailure(encoded, classes) : undefined;
  } catch {
    return undefined;
  }
}

/** Baton's and JavaScript's error classes by name, with `extra` (an application's own) taking precedence. */
export function knownClasses(extra: readonly ErrorClass[] = []): Map<string, ErrorClass> {
  return new Map([...KNOWN_CLASSES, ...extra].map((errorClass) => [errorClass.name, errorClass]));
}

function encodeValue(value: unknown, depth: number): Json {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (depth > MAX_DEPTH || typeof value !== 'object') return null;
  if (value instanceof Error) return { [ERROR_KEY]: encodeError(value, depth) as unknown as Json };
  if (Array.isArray(value)) return value.map((item) => encodeValue(item, depth + 1));
  const json = typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON: () => unknown }).toJSON() : value;
  if (json !== value) return encodeValue(json, depth + 1);
  const out: { [key: string]: Json } = {};
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined && typeof field !== 'function') out[key] = encodeValue(field, depth + 1);
  }
  return out;
}

function encodeError(error: Error, depth: number): EncodedError {
  const fields: { [key: string]: Json } = {};
  for (const [key, field] of Object.entries(error)) {
    if (!SKIPPED_FIELDS.has(key) && field !== undefined && typeof field !== 'function') fields[key] = encodeValue(field, depth + 1);
  }
  const cause = Object.getOwnPropertyDescriptor(error, 'cause');
  return {
    classes: classChain(error),
    name: error.name,
    message: error.message,
    ...(typeof error.stack === 'string' ? { stack: error.stack } : {}),
    ...(cause && !cause.enumerable && cause.value !== undefined ? { cause: encodeValue(cause.value, depth + 1) } : {}),
    fields,
  };
}

function classChain(error: Error): string[] {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(error) as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    const ctor = (proto as { constructor?: unknown }).constructor;
    if (typeof ctor === 'function' && ctor.name) names.push(ctor.name);
  }
  return names;
}

function decodeValue(json: Json, classes: ReadonlyMap<string, ErrorClass>): unknown {
  if (json === null || typeof json !== 'object') return json;
  if (Array.isArray(json)) return json.map((item) => decodeValue(item, classes));
  const encoded = Object.hasOwn(json, ERROR_KEY) ? (json[ERROR_KEY] as unknown as EncodedError) : undefined;
  if (encoded && typeof encoded === 'object' && Array.isArray(encoded.classes)) return decodeError(encoded, classes);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(json)) out[key] = decodeValue(field, classes);
  return out;
}

/** The error rebuilt on the prototype of the nearest class it had that is known here, without running a constructor. */
function decodeError(encoded: EncodedError, classes: ReadonlyMap<string, ErrorClass>): Error {
  const errorClass = encoded.classes.map((name) => classes.get(name)).find((found) => found !== undefined) ?? Error;
  const error = Object.create(errorClass.prototype) as Error;
  const hidden = (key: string, value: unknown) => Object.defineProperty(error, key, { value, writable: true, configurable: true, enumerable: false });
  hidden('message', encoded.message);
  if (encoded.stack !== undefined) hidden('stack', encoded.stack);
  if (encoded.cause !== undefined) hidden('cause', decodeValue(encoded.cause, classes));
  for (const [key, field] of Object.entries(encoded.fields ?? {})) {
    if (key === '__proto__') continue;
    Object.defineProperty(error, key, { value: decodeValue(field, classes), writable: true, configurable: true, enumerable: true });
  }
  if (error.name !== encoded.name) hidden('name', encoded.name);
  return error;
}
