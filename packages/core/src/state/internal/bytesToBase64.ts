/** Base64 of bytes, in chunks (a spread of a large array would overflow the call stack); `btoa` exists in Node and browsers. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
