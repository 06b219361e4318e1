import { UserError } from '@baton/types';

/**
 * Zod intersections in strict mode. Structured Outputs have no `allOf`, so an intersection is
 * offered flattened: two closed `z.object`s become one object, two identical unconstrained
 * primitives become that primitive. The reference flattens them with a converter of its own that
 * keeps no constraints, so it accepts a flattened object intersection only when the rest of the
 * schema has nothing that converter would drop (checks, formats, refinements, transforms, records,
 * open objects); Baton refuses the same schemas with the same reasons, so a tool accepted by one
 * SDK is accepted by the other.
 *
 * The rules read zod's own schema tree (zod 4's `_zod.def`, zod 3's `_def`), since whether an
 * object is closed (`.strict()` / `.passthrough()` / `.catchall()`) is not visible in every
 * JSON description zod writes.
 */

type Def = Record<string, unknown>;

/** Wrappers that change nothing a model can send. */
const LOSSLESS_WRAPPERS = new Set(['brand', 'branded', 'catch', 'default', 'prefault', 'readonly']);
/** Wrappers whose effect the flattened schema cannot show. */
const LOSSY_WRAPPERS = new Set(['effects', 'pipeline', 'pipe', 'refinement', 'transform']);

function definitionOf(schema: unknown): Def | undefined {
  if (typeof schema !== 'object' && typeof schema !== 'function') return undefined;
  if (schema === null) return undefined;
  const zod4 = (schema as { _zod?: { def?: Def } })._zod?.def;
  if (zod4 && typeof zod4 === 'object') return zod4;
  const zod3 = (schema as { _def?: Def })._def;
  return zod3 && typeof zod3 === 'object' ? zod3 : undefined;
}

/** The node's kind in zod 4's spelling (`object`, `intersection`, `optional`, ...). */
function kindOf(schema: unknown): string | undefined {
  const def = definitionOf(schema);
  if (!def) return undefined;
  if (typeof def.typeName === 'string') return def.typeName.replace(/^Zod/, '').toLowerCase();
  return typeof def.type === 'string' ? def.type : undefined;
}

/** The schema a wrapper wraps (zod 3's effects / branded / pipeline, zod 4's pipe included). */
function innerOf(schema: unknown): unknown {
  const def = definitionOf(schema);
  if (!def) return undefined;
  for (const key of ['innerType', 'schema', 'in', 'getter'] as const) {
    const inner = def[key];
    if (inner !== undefined) return key === 'getter' && typeof inner === 'function' ? (inner as () => unknown)() : inner;
  }
  // zod 3's branded and zod 4's lazy keep the wrapped schema under `type`; every other kind keeps its name there.
  return typeof def.type === 'object' ? def.type : undefined;
}

interface Walk {
  objectIntersection: boolean;
  lossless: boolean;
  readonly owner: string;
  readonly seen: Set<unknown>;
}

/**
 * Checks the intersections of a zod (3 or 4) object schema offered in strict mode: a UserError
 * naming `owner` for one that cannot be flattened without changing what the schema accepts.
 */
export function checkStrictZodIntersections(schema: unknown, owner: string): void {
  const walk: Walk = { objectIntersection: false, lossless: true, owner, seen: new Set() };
  const root = unwrap(schema, walk);
  const rootDef = definitionOf(root);
  if (kindOf(root) !== 'object' || !rootDef || !closedObject(rootDef) || hasChecks(rootDef)) walk.lossless = false;
  visit(root, walk);
  if (walk.objectIntersection && !walk.lossless) {
    throw new UserError(
      `${owner}: strict mode flattens Zod object intersections into one object, which it cannot do for this schema without losing constraints (a check, format, refinement, transform, record or open object elsewhere in it would be dropped). Remove those constraints, combine the fields into one z.object, or set strict: false.`,
    );
  }
}

/** Strips optional / nullable-free wrappers, noting the ones whose effect a flattened schema would lose. */
function unwrap(schema: unknown, walk: Walk): unknown {
  let current = schema;
  for (let guard = 0; guard < 64; guard += 1) {
    const kind = kindOf(current);
    if (kind === undefined || !(kind === 'optional' || LOSSLESS_WRAPPERS.has(kind) || LOSSY_WRAPPERS.has(kind))) return current;
    if (LOSSY_WRAPPERS.has(kind)) walk.lossless = false;
    const inner = innerOf(current);
    if (inner === undefined || inner === current) return current;
    current = inner;
  }
  return current;
}

function hasChecks(def: Def): boolean {
  return (Array.isArray(def.checks) && def.checks.length > 0) || typeof def.check === 'string';
}

/** Unknown keys are dropped or refused, not kept: no `.passthrough()` / `.loose()`, no catchall but `z.never()`. */
function closedObject(def: Def): boolean {
  if (def.unknownKeys === 'passthrough') return false;
  const catchall = def.catchall;
  return catchall === undefined || kindOf(catchall) === 'never';
}

/**
 * An object an intersection can be flattened with: closed, and not zod 3's `.strict()` (which
 * refuses the other branch's properties when parsing, so the flattened object would offer
 * properties the schema rejects).
 */
function joinableObject(schema: unknown): boolean {
  const def = definitionOf(schema);
  return def !== undefined && closedObject(def) && def.unknownKeys !== 'strict';
}

function visit(schema: unknown, walk: Walk): void {
  const node = unwrap(schema, walk);
  if (walk.seen.has(node)) return;
  walk.seen.add(node);
  const kind = kindOf(node);
  const def = definitionOf(node);
  if (!kind || !def) {
    walk.lossless = false;
    return;
  }
  if (hasChecks(def)) walk.lossless = false;
  switch (kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'literal':
    case 'enum':
    case 'nativeenum':
    case 'null':
      return;
    case 'object': {
      if (!closedObject(def)) walk.lossless = false;
      for (const field of Object.values(shapeOf(def))) visit(field, walk);
      return;
    }
    case 'array':
      if ([def.minLength, def.maxLength, def.exactLength].some((c) => c !== null && c !== undefined)) walk.lossless = false;
      visit(typeof def.element === 'object' ? def.element : def.type, walk);
      return;
    case 'tuple':
      if (def.rest !== undefined && def.rest !== null) walk.lossless = false;
      for (const item of Array.isArray(def.items) ? def.items : []) visit(item, walk);
      return;
    case 'union':
    case 'discriminatedunion': {
      const options = def.options instanceof Map ? [...def.options.values()] : Array.isArray(def.options) ? def.options : [];
      for (const option of options) visit(option, walk);
      return;
    }
    case 'nullable':
      visit(def.innerType, walk);
      return;
    case 'record':
      walk.lossless = false;
      visit(def.valueType, walk);
      return;
    case 'intersection':
      intersection(def.left, def.right, walk);
      return;
    default:
      walk.lossless = false;
  }
}

function intersection(left: unknown, right: unknown, walk: Walk): void {
  visit(left, walk);
  visit(right, walk);
  const sides = [left, right].map((side) => unwrap(side, { ...walk, lossless: true }));
  const kinds = sides.map(kindOf);
  if (kinds.every((k) => k === 'object' || k === 'intersection')) {
    for (const side of sides) if (kindOf(side) === 'object' && !joinableObject(side)) refuse(walk);
    const names = sides.map((side) => propertyNames(side));
    if (names[0]!.some((name) => names[1]!.includes(name))) refuse(walk);
    walk.objectIntersection = true;
    return;
  }
  if (kinds.some((k) => k === 'object' || k === 'intersection')) {
    // An object met with something else: an open branch is refused as above.
    for (const side of sides) if (kindOf(side) === 'object' && !joinableObject(side)) refuse(walk);
  }
  // Two primitives: flattened when they are the same unconstrained type (see `lowerJsonIntersections`).
  walk.lossless = walk.lossless && kinds[0] === kinds[1] && sides.every((side) => !hasChecks(definitionOf(side) ?? {}));
}

function propertyNames(schema: unknown): string[] {
  const kind = kindOf(schema);
  const def = definitionOf(schema);
  if (!def) return [];
  if (kind === 'object') return Object.keys(shapeOf(def));
  if (kind === 'intersection') {
    const noop: Walk = { objectIntersection: false, lossless: true, owner: '', seen: new Set() };
    return [...propertyNames(unwrap(def.left, noop)), ...propertyNames(unwrap(def.right, noop))];
  }
  return [];
}

function shapeOf(def: Def): Record<string, unknown> {
  const shape = typeof def.shape === 'function' ? (def.shape as () => unknown)() : def.shape;
  return typeof shape === 'object' && shape !== null ? (shape as Record<string, unknown>) : {};
}

function refuse(walk: Walk): never {
  throw new UserError(
    `${walk.owner}: strict mode offers a Zod intersection as one object, so it accepts only compatible Zod object intersections with distinct properties and closed object branches (no .passthrough(), .catchall() or .strict() on a branch, no property on both sides). Combine the fields into one z.object, or set strict: false.`,
  );
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * zod's JSON description with its intersections (`allOf`) flattened as `checkStrictZodIntersections`
 * allows: object branches into one closed object (their properties and required lists joined,
 * their descriptions joined by a blank line), identical unconstrained primitives into one. The
 * intersection's own description, when it has one, stays. Only schema positions are walked (a
 * property or a default value named `allOf` is data). `schema` is not changed.
 */
export function lowerJsonIntersections(schema: Json): Json {
  return lower(schema) as Json;
}

function lower(node: unknown): unknown {
  if (!isRecord(node)) return node;
  const out: Json = { ...node };
  if (isRecord(node.properties)) out.properties = Object.fromEntries(Object.entries(node.properties).map(([name, prop]) => [name, lower(prop)]));
  if (node.items !== undefined) out.items = Array.isArray(node.items) ? node.items.map(lower) : lower(node.items);
  if (isRecord(node.additionalProperties)) out.additionalProperties = lower(node.additionalProperties);
  for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(node[key])) out[key] = (node[key] as unknown[]).map(lower);
  for (const key of ['$defs', 'definitions'] as const) {
    if (isRecord(node[key])) out[key] = Object.fromEntries(Object.entries(node[key] as Json).map(([name, def]) => [name, lower(def)]));
  }
  if (!Array.isArray(node.allOf) || node.allOf.length === 0) return out;
  const branches = node.allOf.map(lower);
  const joined = joinObjects(branches) ?? joinPrimitives(branches);
  if (!joined) {
    out.allOf = branches;
    return out;
  }
  const { allOf: _allOf, ...rest } = out;
  return { ...joined, ...rest };
}

function descriptionOf(branches: readonly Json[]): { description?: string } {
  const descriptions = branches.map((b) => b.description).filter((d): d is string => typeof d === 'string');
  return descriptions.length > 0 ? { description: descriptions.join('\n\n') } : {};
}

function joinObjects(branches: readonly unknown[]): Json | undefined {
  if (!branches.every((b) => isRecord(b) && (b.type === 'object' || b.type === undefined) && isRecord(b.properties) && !('allOf' in b))) return undefined;
  const objects = branches as Json[];
  const properties: Json = {};
  const required: string[] = [];
  for (const branch of objects) {
    for (const [name, prop] of Object.entries(branch.properties as Json)) {
      if (Object.hasOwn(properties, name)) return undefined;
      properties[name] = prop;
    }
    for (const name of Array.isArray(branch.required) ? branch.required : []) if (!required.includes(String(name))) required.push(String(name));
  }
  return { type: 'object', properties, required, additionalProperties: false, ...descriptionOf(objects) };
}

function joinPrimitives(branches: readonly unknown[]): Json | undefined {
  const first = branches[0];
  if (!isRecord(first) || typeof first.type !== 'string' || !PRIMITIVE_TYPES.has(first.type)) return undefined;
  const same = branches.every((b) => isRecord(b) && b.type === first.type && Object.keys(b).every((k) => k === 'type' || k === 'description'));
  return same ? { type: first.type, ...descriptionOf(branches as Json[]) } : undefined;
}
