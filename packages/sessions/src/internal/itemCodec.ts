import type { AgentInputItem } from '@baton/types';

/** How bytes (`Uint8Array`, e.g. an image's data) are written in an item's JSON text. */
const BYTES_KEY = '$baton_bytes';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function replacer(this: unknown, _key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? { [BYTES_KEY]: toBase64(value) } : value;
}

function reviver(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const text = (value as Record<string, unknown>)[BYTES_KEY];
    if (keys.length === 1 && typeof text === 'string') return fromBase64(text);
  }
  return value;
}

/** An item as stored: its JSON text, bytes as base64. */
export function encodeItem(item: AgentInputItem): string {
  return JSON.stringify(item, replacer);
}

export function decodeItem(text: string): AgentInputItem {
  return JSON.parse(text, reviver) as AgentInputItem;
}

/** JSON text with object keys sorted: equal for equal data, whatever the key order or prototype. */
export function canonicalText(value: unknown): string {
  return JSON.stringify(sorted(value), replacer);
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key]);
  return out;
}
