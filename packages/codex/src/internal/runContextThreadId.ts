import { UserError } from '@baton/core';

/**
 * `useRunContextThreadId`: the Codex thread of a tool lives in the run's context object (or Map)
 * under a key, so runs sharing that context continue the same thread.
 */
const notMutable = 'Codex tool: useRunContextThreadId needs a mutable run context (an object or a Map) to keep the thread id in';

/** Fails unless the thread id can be written to the context under `key`. */
export function assertWritableContext(context: unknown, key: string): void {
  if (context === undefined || context === null) {
    throw new UserError(`${notMutable}; pass one, e.g. run(agent, input, { context: {} }).`);
  }
  if (context instanceof Map) return;
  if (typeof context !== 'object') throw new UserError(`${notMutable}, not a ${typeof context}.`);
  if (Object.isFrozen(context)) throw new UserError(`${notMutable}; this one is frozen.`);
  const property = Object.getOwnPropertyDescriptor(context, key);
  if (property) {
    const writable = 'set' in property ? typeof property.set === 'function' : property.writable === true;
    if (!writable) throw new UserError(`${notMutable}; its "${key}" is read-only.`);
    return;
  }
  if (!Object.isExtensible(context)) throw new UserError(`${notMutable}; it does not accept the new property "${key}".`);
}

export function readContextThreadId(context: unknown, key: string): string | undefined {
  if (context === undefined || context === null) return undefined;
  const value = context instanceof Map ? context.get(key) : (context as Record<string, unknown>)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new UserError(`Codex tool: the run context's "${key}" must be a string thread id, got ${typeof value}.`);
  return value.trim() || undefined;
}

export function writeContextThreadId(context: unknown, key: string, threadId: string | null): void {
  if (!threadId) return;
  assertWritableContext(context, key);
  if (context instanceof Map) {
    context.set(key, threadId);
    return;
  }
  try {
    (context as Record<string, unknown>)[key] = threadId;
  } catch (error) {
    throw new UserError(`Codex tool: could not keep the thread id in the run context's "${key}": ${error instanceof Error ? error.message : String(error)}`);
  }
}
