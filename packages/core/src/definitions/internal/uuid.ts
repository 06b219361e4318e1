/**
 * A random (version 4) UUID: `crypto.randomUUID` where the runtime has it (Node, Deno, Bun,
 * browsers in secure contexts; it draws from a cached entropy pool, several times cheaper than
 * the fallback), else built from `crypto.getRandomValues`, which every runtime has (browsers give
 * `randomUUID` to secure contexts, https and localhost, only).
 */
export function randomUuid(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return flattened(crypto.randomUUID());
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Node builds \`randomUUID()\` by concatenation: in V8 the result is a tree of about fifteen string
 * pieces (some 490 bytes held for as long as the id lives, as a paused run keeps its run id) until
 * something reads a character, which makes V8 flatten it in place to one 36-character string
 * (about 70 bytes). Elsewhere reading a character is just that.
 */
function flattened(id: string): string {
  id.charCodeAt(0);
  return id;
}
