import { UserError, type RunToolApprovalItem } from '@baton/types';

/**
 * A copy of a pending approval item that shares nothing with the run state: what the caller does
 * to it (editing its arguments, say) changes neither the call that is waiting nor what a decision
 * on it applies to. A payload that cannot be copied without sharing (functions, shared memory) is
 * refused rather than handed out by reference.
 */
export function detachedApprovalItem(item: RunToolApprovalItem): RunToolApprovalItem {
  const raw = copyOf(item.rawItem, item);
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(item);
  descriptors.rawItem = { ...descriptors.rawItem, value: raw };
  return Object.create(Object.getPrototypeOf(item), descriptors) as RunToolApprovalItem;
}

function copyOf<T>(raw: T, item: RunToolApprovalItem): T {
  const shared = sharedMemoryIn(raw, new Set());
  if (shared) throw refusal(item, `it holds ${shared}, which a copy would still share`);
  try {
    return structuredClone(raw);
  } catch (error) {
    throw refusal(item, error instanceof Error ? error.message : String(error));
  }
}

function refusal(item: RunToolApprovalItem, why: string): UserError {
  return new UserError(`The pending approval for tool "${item.toolName}" (call ${item.callId}) cannot be copied out of the run state: ${why}. Keep tool call payloads to plain JSON-like data.`);
}

function sharedMemoryIn(value: unknown, seen: Set<object>): string | undefined {
  if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
  seen.add(value);
  if (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer) return 'a SharedArrayBuffer';
  if (ArrayBuffer.isView(value)) return typeof SharedArrayBuffer === 'function' && value.buffer instanceof SharedArrayBuffer ? 'a view of a SharedArrayBuffer' : undefined;
  const wasm = (globalThis as { WebAssembly?: { Memory?: new (...args: never[]) => { buffer: unknown } } }).WebAssembly;
  if (wasm?.Memory && value instanceof wasm.Memory) return 'a WebAssembly memory';
  const children = value instanceof Map ? [...value.keys(), ...value.values()] : value instanceof Set ? [...value] : Object.values(value);
  for (const child of children) {
    const found = sharedMemoryIn(child, seen);
    if (found) return found;
  }
  return undefined;
}
