/**
 * A random (version 4) UUID: `crypto.randomUUID` where the runtime has it (Node, Deno, Bun,
 * browsers in secure contexts; it draws from a cached entropy pool, several times cheaper than
 * the fallback), else built from `crypto.getRandomValues`, which every runtime has (browsers give
 * `randomUUID` to secure contexts, https and localhost, only).
 */
export function randomUuid(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
