/**
 * A short, deterministic fingerprint of a JSON value (object keys sorted), used to notice that a
 * tool's parameter schema changed between pausing a run and resuming it. Not a security hash.
 */
export function jsonFingerprint(value: unknown): string {
  const text = canonicalJson(value);
  // Two 32-bit FNV-1a passes with different offsets give 64 bits: plenty to tell schemas apart.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`;
}

const fingerprints = new WeakMap<object, string>();

/** The fingerprint of a tool's `parameters` (cached per schema object). */
export function parametersFingerprint(tool: { parameters?: unknown }): string {
  const schema = tool.parameters;
  if (typeof schema !== 'object' || schema === null) return jsonFingerprint(schema ?? null);
  let fingerprint = fingerprints.get(schema);
  if (fingerprint === undefined) {
    fingerprint = jsonFingerprint(stableSchemaForm(schema));
    fingerprints.set(schema, fingerprint);
  }
  return fingerprint;
}

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
    .join(',')}}`;
}

/**
 * The schema in one encoding, so a fingerprint outlives changes in how Baton writes schemas:
 * without `$schema`, and with `anyOf: [X, { type: 'null' }]` (the reference's encoding of an
 * optional field, used since the reference's states resume here) written as the type list Baton
 * used before (`type: [t, 'null']`, null joining an enum). States stored by earlier versions keep
 * their fingerprints.
 */
function stableSchemaForm(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stableSchemaForm);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node as Record<string, unknown>).filter(([key]) => key !== '$schema');
  const out: Record<string, unknown> = Object.fromEntries(entries.map(([key, value]) => [key, stableSchemaForm(value)]));
  const branches = out.anyOf;
  if (entries.length !== 1 || !Array.isArray(branches) || branches.length !== 2) return out;
  const nullIndex = branches.findIndex((b) => typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'null' && Object.keys(b).length === 1);
  const other = branches[1 - nullIndex] as Record<string, unknown> | undefined;
  if (nullIndex < 0 || typeof other !== 'object' || other === null || typeof other.type !== 'string' || 'const' in other) return out;
  const merged: Record<string, unknown> = { ...other, type: [other.type, 'null'] };
  if (Array.isArray(other.enum) && !other.enum.includes(null)) merged.enum = [...other.enum, null];
  return merged;
}
