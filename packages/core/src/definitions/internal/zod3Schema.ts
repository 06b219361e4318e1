import { nodeBuiltin } from './nodeBuiltin.js';

/**
 * zod 3 schemas (`zod@^3.25`'s classic API, which the reference accepts) cannot describe themselves
 * as JSON Schema, so `zod-to-json-schema` does it. It is loaded on the first zod 3 schema only: it
 * imports `zod/v3`, which a program on zod 4 or on another schema library should not pay for.
 */
type ZodToJsonSchema = (schema: unknown, options: Record<string, unknown>) => Record<string, unknown>;

let converter: ZodToJsonSchema | undefined;

/** A zod 3 schema: zod's Standard Schema vendor, with zod 3's `_def.typeName` and without zod 4's `_zod`. */
export function isZod3Schema(schema: object): boolean {
  const def = (schema as { _def?: { typeName?: unknown } })._def;
  return !('_zod' in schema) && typeof def?.typeName === 'string' && def.typeName.startsWith('Zod');
}

/** The draft-07 JSON schema of a zod 3 schema, inlined (no `$ref`); transforms are described by their input. */
export function zod3JsonSchema(schema: object, owner: string): Record<string, unknown> {
  return loadConverter(owner)(schema, { target: 'jsonSchema7', $refStrategy: 'none', effectStrategy: 'input' });
}

function loadConverter(owner: string): ZodToJsonSchema {
  if (converter) return converter;
  // A synchronous load, so tool() can still describe its schema when it is called.
  const { createRequire } = nodeBuiltin<{ createRequire: (from: string) => (id: string) => unknown }>('module', `${owner}: a zod 3 schema (described by zod-to-json-schema)`);
  // `import.meta.url` is shimmed in the CommonJS build (tsup `shims`).
  const loaded = createRequire(import.meta.url)('zod-to-json-schema') as { zodToJsonSchema: ZodToJsonSchema };
  converter = loaded.zodToJsonSchema;
  return converter;
}

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * A nullable primitive without checks, as OpenAI's zod 3 helper (which the reference uses for the
 * strict form) writes it: `{ type: 'string', nullable: true }` rather than `type: ['string', 'null']`.
 */
export function zod3NullableAsProperty(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(zod3NullableAsProperty);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = zod3NullableAsProperty(value);
  const type = out.type;
  const keys = Object.keys(out).filter((k) => k !== 'type' && k !== 'description' && k !== 'default');
  if (Array.isArray(type) && type.length === 2 && type.includes('null') && keys.length === 0) {
    const inner = type.find((t) => t !== 'null');
    if (typeof inner === 'string' && PRIMITIVES.has(inner)) {
      out.type = inner;
      out.nullable = true;
    }
  }
  return out;
}
