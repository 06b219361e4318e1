import { UserError } from '@baton/types';

/** A plain JSON Schema, limited to the keywords this validator understands (see `SUPPORTED`). */
export type JsonSchema = { [keyword: string]: unknown };

export interface SchemaIssue {
  /** JSON Pointer to the offending value (`''` is the root). */
  path: string;
  message: string;
}

const SUPPORTED = ['type', 'properties', 'required', 'items', 'enum', 'const', 'additionalProperties'];
const ANNOTATIONS = ['title', 'description', '$schema', '$id', '$comment', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly'];
const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/**
 * Checks a schema once, at construction: any keyword outside `SUPPORTED` (and plain annotations)
 * is a `UserError` naming it and where it is, instead of being silently ignored.
 */
export function assertSupportedSchema(schema: unknown, owner: string, at = '#'): asserts schema is JsonSchema {
  if (typeof schema === 'boolean') return;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UserError(`${owner}: the schema at ${at} must be an object.`);
  }
  const s = schema as JsonSchema;
  const unsupported = Object.keys(s).filter((k) => !SUPPORTED.includes(k) && !ANNOTATIONS.includes(k));
  if (unsupported.length > 0) {
    throw new UserError(
      `${owner}: unsupported JSON Schema keyword(s) at ${at}: ${unsupported.join(', ')}. ` +
        `Plain JSON schemas may use ${SUPPORTED.join(', ')}; for anything more, pass a Standard Schema (zod, valibot, ...).`,
    );
  }
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  for (const type of types) {
    if (typeof type !== 'string' || !TYPES.includes(type)) throw new UserError(`${owner}: unknown type ${JSON.stringify(type)} at ${at}/type.`);
  }
  if (s.required !== undefined && (!Array.isArray(s.required) || s.required.some((k) => typeof k !== 'string'))) {
    throw new UserError(`${owner}: \`required\` at ${at} must be an array of strings.`);
  }
  if (s.enum !== undefined && !Array.isArray(s.enum)) throw new UserError(`${owner}: \`enum\` at ${at} must be an array.`);
  if (s.properties !== undefined) {
    if (typeof s.properties !== 'object' || s.properties === null) throw new UserError(`${owner}: \`properties\` at ${at} must be an object.`);
    for (const [key, sub] of Object.entries(s.properties)) assertSupportedSchema(sub, owner, `${at}/properties/${key}`);
  }
  if (s.items !== undefined) assertSupportedSchema(s.items, owner, `${at}/items`);
  if (s.additionalProperties !== undefined && typeof s.additionalProperties !== 'boolean') {
    assertSupportedSchema(s.additionalProperties, owner, `${at}/additionalProperties`);
  }
}

/** Every issue of `value` against `schema` (which passed `assertSupportedSchema`). */
export function validateJson(schema: JsonSchema | boolean, value: unknown, path = ''): SchemaIssue[] {
  if (schema === true) return [];
  if (schema === false) return [{ path, message: 'no value is allowed here' }];
  const issues: SchemaIssue[] = [];
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[];
    if (!types.some((type) => hasType(value, type))) {
      return [{ path, message: `expected ${types.join(' or ')}, got ${jsonType(value)}` }];
    }
  }
  if (schema.const !== undefined && !deepEqual(schema.const, value)) {
    issues.push({ path, message: `expected ${JSON.stringify(schema.const)}` });
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => deepEqual(option, value))) {
    issues.push({ path, message: `expected one of ${schema.enum.map((o) => JSON.stringify(o)).join(', ')}` });
  }
  if (isObject(value)) {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema | boolean>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!(key in value)) issues.push({ path: `${path}/${pointer(key)}`, message: 'is required' });
    }
    for (const [key, item] of Object.entries(value)) {
      const sub = properties[key] ?? (schema.additionalProperties as JsonSchema | boolean | undefined);
      if (sub === false && !(key in properties)) issues.push({ path: `${path}/${pointer(key)}`, message: 'is not allowed' });
      else if (sub !== undefined) issues.push(...validateJson(sub, item, `${path}/${pointer(key)}`));
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    value.forEach((item, i) => issues.push(...validateJson(schema.items as JsonSchema | boolean, item, `${path}/${i}`)));
  }
  return issues;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
