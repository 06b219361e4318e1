import type { JsonValue } from '@baton/core';

/** The one key of a recorded step output written as JSON text (see `toStepRecord`). */
const TEXT_KEY = '~baton.json';

/** What a step's body hands DBOS to record: its codec's JSON, as one string in a one-key object. */
export interface StepRecord {
  readonly [TEXT_KEY]: string;
}

/**
 * A step's output as DBOS records it: the codec's JSON as text, wrapped. DBOS's default serializer
 * (SuperJSON) walks, copies and parses back every object it records, and then walks it once more to
 * stub functions: for a model answer, three walks of its whole tree per step. A string in a one-key
 * object costs it nothing of the kind; the value is stringified once here and parsed once on the way
 * back (`fromStepRecord`), live or replayed.
 */
export function toStepRecord(json: JsonValue): StepRecord {
  return { [TEXT_KEY]: JSON.stringify(json) };
}

/**
 * The codec's JSON from what DBOS returns for a step: the wrapped text, or (a step recorded by an
 * earlier release, which handed DBOS the JSON itself) the JSON as it is.
 */
export function fromStepRecord(recorded: unknown): JsonValue {
  if (recorded !== null && typeof recorded === 'object' && !Array.isArray(recorded)) {
    const text = (recorded as Record<string, unknown>)[TEXT_KEY];
    if (typeof text === 'string' && Object.keys(recorded).length === 1) return JSON.parse(text) as JsonValue;
  }
  return recorded as JsonValue;
}
