/**
 * The two forms the reference gives a zod schema's JSON schema (zod's own description, draft 7):
 *
 * - `structuredOutputsForm`: the form OpenAI's Structured Outputs accept with `strict: true`, or
 *   undefined when the schema cannot be written so without changing its meaning — an optional
 *   property that does not accept null, an open object (a record), a tuple, or a keyword strict
 *   mode does not support. This decides the `strict` flag of a zod output type, and whether a zod
 *   tool's schema is offered as zod wrote it or in the simpler form below.
 * - `plainZodForm`: the simpler form the reference falls back to: objects list `required` (empty
 *   when all are optional) and close themselves, records are `{ type: 'object', additionalProperties }`,
 *   unions and nullables are `anyOf`, integers are numbers, and constraints that are not structure
 *   (formats, bounds, patterns, defaults) are left out.
 */

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod writes a discriminated union as `oneOf`; its branches exclude each other, so `anyOf` says the same and strict mode accepts it. */
export function discriminatedUnionsAsAnyOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(discriminatedUnionsAsAnyOf);
  if (!isRecord(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'oneOf' && !('anyOf' in node)) out.anyOf = discriminatedUnionsAsAnyOf(value);
    else out[key] = discriminatedUnionsAsAnyOf(value);
  }
  return out;
}

const UNSUPPORTED = new Set([
  '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef', 'allOf', 'contains', 'contentEncoding',
  'contentMediaType', 'contentSchema', 'dependentRequired', 'dependentSchemas', 'dependencies', 'else', 'if', 'maxContains',
  'maxProperties', 'minContains', 'minProperties', 'not', 'oneOf', 'patternProperties', 'prefixItems', 'propertyNames', 'then',
  'unevaluatedItems', 'unevaluatedProperties', 'uniqueItems',
]);

const OBJECT_KEYWORDS = new Set(['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties', 'dependencies', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties']);

class NotStrict extends Error {}

export function structuredOutputsForm(schema: Json): Json | undefined {
  const copy = structuredClone(schema);
  if (copy.type !== 'object' || 'anyOf' in copy) return undefined;
  try {
    return strictNode(copy, copy) as Json;
  } catch (error) {
    if (error instanceof NotStrict) return undefined;
    throw error;
  }
}

function acceptsNull(node: unknown, root: Json, seen: ReadonlySet<string> = new Set()): boolean {
  if (typeof node === 'boolean') return node;
  if (!isRecord(node)) return false;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref) || !node.$ref.startsWith('#')) return false;
    let target: unknown = root;
    for (const part of node.$ref.slice(2).split('/').filter(Boolean)) target = isRecord(target) ? target[decodeURIComponent(part)] : undefined;
    return target !== undefined && acceptsNull(target, root, new Set([...seen, node.$ref]));
  }
  const type = node.type;
  if (type !== undefined && type !== 'null' && !(Array.isArray(type) && type.includes('null'))) return false;
  if ('const' in node && node.const !== null) return false;
  if (node.enum !== undefined && (!Array.isArray(node.enum) || !node.enum.includes(null))) return false;
  if (node.anyOf !== undefined && (!Array.isArray(node.anyOf) || !node.anyOf.some((b) => acceptsNull(b, root, seen)))) return false;
  return !('not' in node || 'if' in node || 'then' in node || 'else' in node || 'allOf' in node || 'oneOf' in node);
}

function strictNode(node: unknown, root: Json): unknown {
  if (!isRecord(node)) throw new NotStrict();
  if (Array.isArray(node.type) && node.type.length === 1) node.type = node.type[0];
  const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || (node.type === undefined && Object.keys(node).some((k) => OBJECT_KEYWORDS.has(k)));
  if (isObject) {
    if (!('additionalProperties' in node)) node.additionalProperties = false;
    else if (node.additionalProperties !== false) throw new NotStrict();
  }
  if (isRecord(node.properties)) {
    const required = Array.isArray(node.required) ? node.required : [];
    for (const [name, prop] of Object.entries(node.properties)) {
      if (!required.includes(name) && !acceptsNull(prop, root)) throw new NotStrict();
      node.properties[name] = strictNode(prop, root);
    }
    node.required = Object.keys(node.properties);
  }
  if (Array.isArray(node.items) || 'additionalItems' in node) throw new NotStrict();
  for (const keyword of Object.keys(node)) if (UNSUPPORTED.has(keyword) && node[keyword] !== undefined) throw new NotStrict();
  const isArray = node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
  if (isArray && node.items === undefined) throw new NotStrict();
  if (node.items !== undefined) node.items = strictNode(node.items, root);
  if (Array.isArray(node.anyOf)) node.anyOf = node.anyOf.map((branch) => strictNode(branch, root));
  for (const key of ['$defs', 'definitions']) {
    if (isRecord(node[key])) for (const [name, def] of Object.entries(node[key] as Json)) (node[key] as Json)[name] = strictNode(def, root);
  }
  if (node.default === null) delete node.default;
  return node;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

export function plainZodForm(schema: Json): Json {
  const out = plainNode(schema) as Json;
  if (!Array.isArray(out.required)) out.required = [];
  if (out.additionalProperties === undefined) out.additionalProperties = false;
  out.$schema = typeof schema.$schema === 'string' ? schema.$schema : DRAFT_07;
  return out;
}

function withDescription(out: Json, node: Json): Json {
  if (typeof node.description === 'string') out.description = node.description;
  return out;
}

function plainNode(node: unknown): unknown {
  if (!isRecord(node)) return node;
  if (typeof node.$ref === 'string') return node;
  const type = node.type;
  // `type: [X, 'null']` (zod's nullable primitive) is a union with null.
  if (Array.isArray(type) && type.includes('null') && type.length === 2 && !('enum' in node)) {
    const inner = plainNode({ ...node, type: type.find((t) => t !== 'null'), description: undefined });
    return withDescription({ anyOf: [inner, { type: 'null' }] }, node);
  }
  const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (branches) return withDescription({ anyOf: branches.map(plainNode) }, node);
  if (Array.isArray(node.allOf)) return withDescription({ allOf: node.allOf.map(plainNode) }, node);
  if ('const' in node) return withDescription({ const: node.const, type: node.const === null ? 'null' : typeof node.const }, node);
  if (Array.isArray(node.enum)) return withDescription({ type: node.type, enum: node.enum }, node);
  if (type === 'object') {
    if (!isRecord(node.properties) && isRecord(node.additionalProperties)) {
      return withDescription({ type: 'object', additionalProperties: plainNode(node.additionalProperties) }, node);
    }
    const properties = isRecord(node.properties) ? Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, plainNode(v)])) : {};
    return withDescription({ type: 'object', properties, required: Array.isArray(node.required) ? node.required : [], additionalProperties: false }, node);
  }
  if (type === 'array') {
    if (Array.isArray(node.items)) {
      const tuple: Json = { type: 'array', items: node.items.map(plainNode), minItems: node.items.length };
      if (node.additionalItems === false || node.maxItems !== undefined) tuple.maxItems = node.items.length;
      return withDescription(tuple, node);
    }
    return withDescription({ type: 'array', items: plainNode(node.items) }, node);
  }
  if (type === 'integer') return withDescription({ type: 'number' }, node);
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'null') return withDescription({ type }, node);
  return node;
}
