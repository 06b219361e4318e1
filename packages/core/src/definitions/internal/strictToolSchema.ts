import { UserError } from '@baton/types';

/**
 * The strict form of a JSON schema for a function tool (and a handoff's input, an agent tool's
 * parameters, a non-zod Standard Schema output type), as the reference writes it: every object with
 * properties lists them all as required and closes itself (`additionalProperties: false`); an
 * optional property that does not already accept `null` is wrapped `anyOf: [schema, { type: 'null' }]`
 * (keeping its description beside), one that accepts null (`type: ['string', 'null']`) is left as
 * written; records and other schemas without properties stay as they are; a `null` default goes.
 */

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords strict mode cannot keep the meaning of: a schema using one is refused, naming it. */
const UNSUPPORTED = [
  '$dynamicRef', '$recursiveRef', 'additionalItems', 'allOf', 'contains', 'contentSchema', 'dependencies', 'dependentRequired',
  'dependentSchemas', 'else', 'if', 'maxContains', 'minContains', 'not', 'oneOf', 'patternProperties', 'prefixItems',
  'propertyNames', 'then', 'unevaluatedItems', 'unevaluatedProperties',
] as const;

export type Nullability = 'allows' | 'disallows' | 'unknown';

/** Whether a schema accepts `null`, as far as its declared keywords say. */
export function nullabilityOf(schema: unknown, root: unknown, seen: ReadonlySet<string> = new Set()): Nullability {
  if (schema === true) return 'allows';
  if (schema === false) return 'disallows';
  if (!isRecord(schema)) return 'unknown';
  if ('type' in schema) {
    const type = schema.type;
    if (typeof type !== 'string' && !Array.isArray(type)) return 'unknown';
    if (type !== 'null' && !(Array.isArray(type) && type.includes('null'))) return 'disallows';
  }
  if ('enum' in schema) {
    if (!Array.isArray(schema.enum)) return 'unknown';
    if (!schema.enum.includes(null)) return 'disallows';
  }
  if ('const' in schema && schema.const !== null) return 'disallows';
  if ('$ref' in schema) {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || seen.has(ref)) return 'unknown';
    const target = resolveLocalRef(ref, root);
    if (target === undefined) return 'unknown';
    const referenced = nullabilityOf(target, root, new Set([...seen, ref]));
    if (referenced !== 'allows') return referenced;
  }
  if ('anyOf' in schema) {
    if (!Array.isArray(schema.anyOf)) return 'unknown';
    const branches = schema.anyOf.map((branch) => nullabilityOf(branch, root, seen));
    if (branches.includes('allows')) return 'allows';
    return branches.every((b) => b === 'disallows') ? 'disallows' : 'unknown';
  }
  if (!('type' in schema) && isRecord(schema.properties)) return 'disallows';
  return 'allows';
}

/** A local `#/...` JSON pointer into `root`; undefined when it does not resolve. */
export function resolveLocalRef(ref: string, root: unknown): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[part];
    if (node === undefined) return undefined;
  }
  return node;
}

function convertsProperties(node: Json): boolean {
  return isRecord(node.properties) && (node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || node.type === undefined);
}

/** How deep strict mode follows a schema (nesting and local references together) before refusing it. */
export const MAX_STRICT_SCHEMA_DEPTH = 100;

/** The reference's words, which programs may match on. */
export const SCHEMA_TOO_DEEP_MESSAGE = 'JSON schema is too deeply nested to process safely. Simplify or flatten the schema, or disable strict mode.';

/**
 * Refuses what strict mode cannot keep the meaning of. A node is checked again when it is reached
 * deeper than before (a shared definition behind a longer reference chain), so the depth limit
 * holds for every path, and a schema nested or chained past it is a UserError, not a stack overflow.
 */
function check(node: unknown, root: unknown, owner: string, walk: SchemaWalk, depth = 1): void {
  if (typeof node === 'object' && node !== null && walk.active.has(node)) return; // a recursive definition: already being checked
  if (depth > MAX_STRICT_SCHEMA_DEPTH) throw new UserError(SCHEMA_TOO_DEEP_MESSAGE);
  if (typeof node === 'boolean') return;
  if (!isRecord(node)) {
    throw new UserError(`${owner}: cannot convert a JSON schema containing a non-boolean, non-object schema node to strict mode; replace it with a JSON schema object or boolean, or set strict: false.`);
  }
  const reached = walk.depths.get(node);
  if (reached !== undefined && reached >= depth) return;
  walk.depths.set(node, depth);
  walk.active.add(node);
  try {
    checkNode(node, root, owner, walk, depth + 1);
  } finally {
    walk.active.delete(node);
  }
}

/** The deepest each node was reached at, and the nodes on the path being checked (a reference back to one is recursion, not depth). */
interface SchemaWalk {
  readonly depths: Map<object, number>;
  readonly active: Set<object>;
}

function checkNode(node: Json, root: unknown, owner: string, walk: SchemaWalk, next: number): void {
  if (node !== root && '$id' in node) {
    throw new UserError(`${owner}: cannot convert a JSON schema with a nested \`$id\` resource to strict mode; remove the nested \`$id\` or set strict: false.`);
  }
  for (const keyword of UNSUPPORTED) {
    if (keyword in node) throw new UserError(`${owner}: cannot convert a JSON schema using unsupported keyword \`${keyword}\` to strict mode; remove the keyword or set strict: false.`);
  }
  if ('$ref' in node) {
    if (typeof node.$ref !== 'string') throw new UserError(`${owner}: cannot convert a JSON schema with a non-string \`$ref\` to strict mode.`);
    const target = resolveLocalRef(node.$ref, root);
    if (target === undefined) throw new UserError(`${owner}: cannot convert unresolved or external JSON schema reference \`${node.$ref}\` to strict mode; use a local reference or set strict: false.`);
    check(target, root, owner, walk, next);
  }
  if ('anyOf' in node) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) throw new UserError(`${owner}: cannot convert a JSON schema with an invalid \`anyOf\` to strict mode.`);
    for (const branch of node.anyOf) check(branch, root, owner, walk, next);
  }
  if (isRecord(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    for (const [name, prop] of Object.entries(node.properties)) {
      check(prop, root, owner, walk, next);
      if (convertsProperties(node) && !required.has(name) && nullabilityOf(prop, root) === 'unknown') {
        throw new UserError(
          `${owner}: cannot tell whether the optional property "${name}" accepts null; make its nullability explicit, make it required, or set strict: false.`,
        );
      }
    }
  }
  const items = node.items;
  if (Array.isArray(items)) for (const item of items) check(item, root, owner, walk, next);
  else if (items !== undefined) check(items, root, owner, walk, next);
  if ('additionalProperties' in node) check(node.additionalProperties, root, owner, walk, next);
  for (const key of ['$defs', 'definitions']) {
    if (isRecord(node[key])) for (const definition of Object.values(node[key] as Json)) check(definition, root, owner, walk, next);
  }
}

/** The strict tool form of `schema` (not changed); a UserError naming `owner` when strict mode cannot keep its meaning. */
export function toStrictToolSchema(schema: Json, owner: string): Json {
  check(schema, schema, owner, { depths: new Map(), active: new Set() });
  return strictNode(structuredClone(schema), schema, schema, owner, true) as Json;
}

function strictNode(node: unknown, original: unknown, root: unknown, owner: string, isRoot = false): unknown {
  if (!isRecord(node)) return node;
  const source = isRecord(original) ? original : node;
  const properties = isRecord(node.properties) ? node.properties : undefined;
  if (node.type === undefined && (properties !== undefined || 'additionalProperties' in node) && node.additionalProperties !== false) {
    throw new UserError(`${owner}: cannot convert a typeless open JSON schema to strict mode; set \`type: "object"\` with \`additionalProperties: false\`, or set strict: false.`);
  }
  if (!isRoot && node.type === undefined && properties !== undefined) node.type = 'object';
  if (convertsProperties(node) && properties !== undefined) {
    const originalProperties = isRecord(source.properties) ? source.properties : {};
    const required = new Set(Array.isArray(source.required) ? source.required.map(String) : []);
    const out: Json = {};
    for (const [name, prop] of Object.entries(properties)) {
      const originalProp = originalProperties[name] ?? prop;
      const converted = strictNode(prop, originalProp, root, owner);
      out[name] = !required.has(name) && nullabilityOf(originalProp, root) === 'disallows' ? wrapNullable(converted) : converted;
    }
    node.properties = out;
    node.required = Object.keys(out);
    node.additionalProperties = false;
  }
  for (const key of ['$defs', 'definitions']) {
    const nested = node[key];
    if (isRecord(nested)) {
      const originalNested = isRecord(source[key]) ? (source[key] as Json) : {};
      node[key] = Object.fromEntries(Object.entries(nested).map(([name, value]) => [name, strictNode(value, originalNested[name] ?? value, root, owner)]));
    }
  }
  if (Array.isArray(node.anyOf)) {
    const originalBranches = Array.isArray(source.anyOf) ? source.anyOf : [];
    node.anyOf = node.anyOf.map((branch, i) => strictNode(branch, originalBranches[i] ?? branch, root, owner));
  }
  if (Array.isArray(node.items)) {
    const originalItems = Array.isArray(source.items) ? source.items : [];
    node.items = node.items.map((item, i) => strictNode(item, originalItems[i] ?? item, root, owner));
  } else if (isRecord(node.items)) {
    node.items = strictNode(node.items, source.items ?? node.items, root, owner);
  }
  if (node.default === null) delete node.default;
  return node;
}

/** `anyOf: [schema, { type: 'null' }]`, with the schema's description repeated on the wrapper. */
function wrapNullable(schema: unknown): unknown {
  if (schema === false) return { anyOf: [false, { type: 'null' }] };
  if (!isRecord(schema)) return schema;
  return { ...(typeof schema.description === 'string' ? { description: schema.description } : {}), anyOf: [schema, { type: 'null' }] };
}

/**
 * The property paths whose `null` was added by strict mode (optional properties that did not
 * accept null): a `null` the model sends there is dropped before validation, so the user's schema
 * sees exactly what it declared.
 */
export interface SyntheticNullTree {
  readonly optional: Set<string>;
  readonly properties: Map<string, SyntheticNullTree>;
  items?: SyntheticNullTree;
  anyOf?: SyntheticNullTree[];
}

export function syntheticNulls(node: unknown, root: unknown = node, depth = 0): SyntheticNullTree | undefined {
  if (!isRecord(node) || depth > 64) return undefined;
  if (typeof node.$ref === 'string') return syntheticNulls(resolveLocalRef(node.$ref, root), root, depth + 1);
  const tree: SyntheticNullTree = { optional: new Set(), properties: new Map() };
  let interesting = false;
  if (isRecord(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    for (const [name, prop] of Object.entries(node.properties)) {
      if (!required.has(name) && nullabilityOf(prop, root) !== 'allows') {
        tree.optional.add(name);
        interesting = true;
      }
      const child = syntheticNulls(prop, root, depth + 1);
      if (child) {
        tree.properties.set(name, child);
        interesting = true;
      }
    }
  }
  const items = syntheticNulls(node.items, root, depth + 1);
  if (items) {
    tree.items = items;
    interesting = true;
  }
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf.map((branch): SyntheticNullTree => syntheticNulls(branch, root, depth + 1) ?? { optional: new Set<string>(), properties: new Map() });
    if (branches.some((b) => b.optional.size > 0 || b.properties.size > 0 || b.items)) {
      tree.anyOf = branches;
      interesting = true;
    }
  }
  return interesting ? tree : undefined;
}

/** Drops the nulls strict mode added (see `syntheticNulls`) from a value the model sent. */
export function stripSyntheticNulls(value: unknown, tree: SyntheticNullTree): unknown {
  if (Array.isArray(value)) return tree.items ? value.map((v) => stripSyntheticNulls(v, tree.items!)) : value;
  if (!isRecord(value)) return value;
  let current = value;
  // Inside a union, every branch's optional properties are candidates: the branch is chosen by the
  // user's validator afterwards.
  if (tree.anyOf) for (const branch of tree.anyOf) current = stripSyntheticNulls(current, branch) as Json;
  const out: Json = {};
  for (const [key, v] of Object.entries(current)) {
    if (v === null && tree.optional.has(key)) continue;
    const child = tree.properties.get(key);
    out[key] = child ? stripSyntheticNulls(v, child) : v;
  }
  return out;
}
