import type { AgentInputItem } from '@baton/types';
import { bytesToBase64 } from './bytesToBase64.js';
import { isPlainObject } from '../../definitions/internal/plainObject.js';

/**
 * Items as the run writes them to its session, as the reference writes them: binary data (an
 * `ArrayBuffer`, a typed array or `DataView`, a Node `Buffer` or its JSON form `{ type: 'Buffer',
 * data: [...] }`) becomes a `data:` URL, in the media type of the object holding it under `data`
 * or `fileData` (`text/plain` without one), so any session can keep the items as JSON. Objects
 * that are not plain data (class instances) are kept as they are; items without binary data are
 * the very same objects.
 */
export function sessionSafeItems(items: AgentInputItem[]): AgentInputItem[] {
  let changed = false;
  const safe = items.map((item) => {
    const encoded = encodeBinary(item, undefined) as AgentInputItem;
    if (encoded !== item) changed = true;
    return encoded;
  });
  return changed ? safe : items;
}

/** `value` with its binary data as data URLs; the same object when it holds none. */
function encodeBinary(value: unknown, mediaType: string | undefined): unknown {
  if (value === null || typeof value !== 'object') return value;
  const bytes = bytesOf(value);
  if (bytes !== undefined) return `data:${mediaType !== undefined && !mediaType.startsWith('data:') ? mediaType : 'text/plain'};base64,${bytesToBase64(bytes)}`;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((entry, index) => {
      const encoded = encodeBinary(entry, mediaType);
      if (encoded !== entry) (copy ??= [...value])[index] = encoded;
    });
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  const own = typeof value.mediaType === 'string' && value.mediaType.length > 0 ? value.mediaType : mediaType;
  let copy: Record<string, unknown> | undefined;
  for (const [key, entry] of Object.entries(value)) {
    const encoded = encodeBinary(entry, key === 'data' || key === 'fileData' ? own : mediaType);
    if (encoded !== entry) (copy ??= { ...value })[key] = encoded;
  }
  return copy ?? value;
}

function bytesOf(value: object): Uint8Array | undefined {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  const snapshot = value as { type?: unknown; data?: unknown };
  // A Buffer's JSON form, as the reference reads it (its numbers taken as bytes).
  if (snapshot.type === 'Buffer' && Array.isArray(snapshot.data)) return Uint8Array.from(snapshot.data as number[]);
  return undefined;
}
