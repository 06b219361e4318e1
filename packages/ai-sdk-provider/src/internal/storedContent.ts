import { isRecord } from './json.js';

/** File bytes kept in an item: base64, or a URL (JSON-safe, so the item survives serialization). */
export type StoredFileData = { type: 'data'; data: string } | { type: 'url'; url: string };

/**
 * Model output Baton's protocol has no item for, kept in an `unknown` item's
 * `providerData.aiSdkContent` so it is not lost and, where the spec allows, goes back to the model
 * as an assistant part on the next request (files, v4 `reasoning-file` and `custom` content).
 */
export type StoredContent =
  | { type: 'file'; mediaType: string; data: StoredFileData }
  | { type: 'reasoning-file'; mediaType: string; data: StoredFileData }
  | { type: 'custom'; kind: `${string}.${string}` }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string };

/** Marks the refusal part this adapter writes for a content-filter finish (not the model's words: never replayed). */
export const CONTENT_FILTER_MARK = 'aiSdkContentFilter';

/** A generated file's data as v3 (`string` base64 or bytes) or v4 (tagged `data` / `url`) sends it. */
export function storedFileData(data: unknown): StoredFileData {
  if (typeof data === 'string') return { type: 'data', data };
  if (data instanceof Uint8Array) return { type: 'data', data: toBase64(data) };
  if (isRecord(data)) {
    if (data.type === 'url' && (typeof data.url === 'string' || data.url instanceof URL)) return { type: 'url', url: String(data.url) };
    if (data.type === 'data') return storedFileData(data.data);
  }
  return { type: 'data', data: '' };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
