import { UserError, type JsonObjectSchema } from '@baton/types';
import { isZod3Schema, zod3JsonSchema } from './zod3Schema.js';

/**
 * A Standard Schema v1 object (zod 4, valibot, arktype, ...). Matched structurally, never with
 * `instanceof`, so schemas built by the user's own copy of zod work.
 */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema?: { readonly input: (options: { target: string }) => Record<string, unknown> };
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

// `| undefined` on `path` as in the Standard Schema spec: without it, zod's schemas do not fit this
// type under `exactOptionalPropertyTypes`.
type StandardIssue = { readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined };

type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };

export type InferSchemaOutput<S> = S extends StandardSchemaLike<infer O> ? O : unknown;

export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    '~standard' in value &&
    typeof (value as StandardSchemaLike)['~standard']?.validate === 'function'
  );
}

export function isJsonObjectSchema(value: unknown): value is JsonObjectSchema {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'object';
}

export type ValidationResult = { ok: true; value: unknown } | { ok: false; message: string };

/** A schema ready to offer to a model and to check what the model sends back. */
export interface CompiledSchema {
  readonly jsonSchema: JsonObjectSchema;
  readonly strict: boolean;
  validate(value: unknown): Promise<ValidationResult>;
}

/**
 * Turns a Standard Schema or a JSON object schema into a JSON schema for the model (strict when
 * asked: every property required, no extra properties) and a validator. Optional properties become
 * required-but-nullable, and a `null` the model sends for them is removed before validation, so the
 * user's schema sees exactly what it declared.
 */
export function compileSchema(schema: unknown, options: { strict: boolean; owner: string; io?: 'input' | 'output' }): CompiledSchema {
  if (isStandardSchema(schema)) {
    const describeAs = schema['~standard'].jsonSchema as StandardSchemaLike['~standard']['jsonSchema'] & { output?: (o: { target: string }) => Record<string, unknown> };
    const toJson = isZod3Schema(schema)
      ? () => zod3JsonSchema(schema, options.owner)
      : options.io === 'output'
        ? (describeAs?.output ?? describeAs?.input)
        : describeAs?.input;
    if (typeof toJson !== 'function') {
      throw new UserError(
        `${options.owner}: the schema (vendor "${schema['~standard'].vendor}") cannot describe itself as JSON Schema; use zod 4, zod 3 or a Standard JSON Schema implementation.`,
      );
    }
    // Draft 7, with its `$schema` kept: the JSON schema the reference sends for the same zod schema.
    // A schema whose output side cannot be described (a transform) is described by its input side.
    let raw: Record<string, unknown>;
    try {
      try {
        raw = toJson({ target: 'draft-07' });
      } catch (error) {
        if (options.io !== 'output' || typeof describeAs?.input !== 'function') throw error;
        raw = describeAs.input({ target: 'draft-07' });
      }
    } catch (error) {
      // For example a date or a bigint: JSON Schema cannot describe it, so no model can be asked for it.
      throw new UserError(`${options.owner}: the schema cannot be described as JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!isJsonObjectSchema(raw)) {
      throw new UserError(`${options.owner}: the schema must describe an object (got JSON schema type ${JSON.stringify(raw.type)}).`);
    }
    // A null the model sends for an optional field is dropped before validation, strict or not.
    const optionalPaths = collectOptional(raw);
    const jsonSchema = (options.strict ? toStrict(raw, options.owner) : raw) as JsonObjectSchema;
    return {
      jsonSchema,
      strict: options.strict,
      async validate(value) {
        const input = optionalPaths ? stripOptionalNulls(value, optionalPaths) : value;
        const result = await schema['~standard'].validate(input);
        if (result.issues) return { ok: false, message: formatIssues(result.issues) };
        return { ok: true, value: result.value };
      },
    };
  }
  if (isJsonObjectSchema(schema)) {
    const jsonSchema = (options.strict ? toStrict(schema, options.owner) : schema) as JsonObjectSchema;
    return {
      jsonSchema,
      strict: options.strict,
      async validate(value) {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          return { ok: false, message: 'expected a JSON object' };
        }
        return { ok: true, value };
      },
    };
  }
  throw new UserError(`${options.owner}: expected a zod 4 / Standard Schema object or a JSON object schema, got ${describe(schema)}.`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object that is neither' : typeof value;
}

function formatIssues(issues: ReadonlyArray<StandardIssue>): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

type Json = Record<string, unknown>;

function isObjectNode(node: unknown): node is Json {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

/** Rewrites a JSON schema in place-free fashion into OpenAI strict mode. */
function toStrict(node: unknown, owner: string): unknown {
  if (Array.isArray(node)) return node.map((n) => toStrict(n, owner));
  if (!isObjectNode(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObjectNode(value)) {
      const props: Json = {};
      for (const [name, prop] of Object.entries(value)) props[name] = toStrict(prop, owner);
      out[key] = props;
    } else if (key === 'additionalProperties' || key === 'required') {
      continue;
    } else {
      out[key] = toStrict(value, owner);
    }
  }
  const isObject = node.type === 'object' || isObjectNode(node.properties);
  if (isObject) {
    if (isObjectNode(node.additionalProperties) || node.additionalProperties === true) {
      if (isObjectNode(node.properties) && Object.keys(node.properties).length > 0) {
        throw new UserError(`${owner}: strict schemas cannot allow additional properties; set strict: false to use them.`);
      }
      throw new UserError(`${owner}: strict schemas cannot describe open records (additionalProperties); set strict: false.`);
    }
    const properties = (out.properties as Json | undefined) ?? {};
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const name of Object.keys(properties)) {
      if (!required.has(name)) properties[name] = nullable(properties[name]);
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return splitNullType(out);
}

/**
 * A value that may also be null, encoded as the reference encodes optional-and-nullable fields:
 * `anyOf: [schema, { type: 'null' }]`.
 */
function nullable(input: unknown): unknown {
  if (!isObjectNode(input) || allowsNull(input)) return input;
  return { anyOf: [input, { type: 'null' }] };
}

function allowsNull(node: Json): boolean {
  return node.type === 'null' || (Array.isArray(node.anyOf) && node.anyOf.some((branch) => isObjectNode(branch) && branch.type === 'null'));
}

/** `type: [X, 'null']` (how zod writes `.nullable()`) becomes `anyOf: [{ type: X }, { type: 'null' }]`, as in the reference. */
function splitNullType(node: Json): Json {
  const type = node.type;
  if (!Array.isArray(type) || type.length !== 2 || !type.includes('null')) return node;
  return { anyOf: [{ ...node, type: type.find((t) => t !== 'null') }, { type: 'null' }] };
}

/** Optional property names per object node, mirrored as a tree over properties / items. */
interface OptionalTree {
  optional: Set<string>;
  properties: Map<string, OptionalTree>;
  items?: OptionalTree;
}

function collectOptional(node: unknown): OptionalTree | undefined {
  if (!isObjectNode(node)) return undefined;
  const tree: OptionalTree = { optional: new Set(), properties: new Map() };
  let interesting = false;
  if (isObjectNode(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const [name, prop] of Object.entries(node.properties)) {
      if (!required.has(name)) {
        tree.optional.add(name);
        interesting = true;
      }
      const child = collectOptional(prop);
      if (child) {
        tree.properties.set(name, child);
        interesting = true;
      }
    }
  }
  const items = collectOptional(node.items);
  if (items) {
    tree.items = items;
    interesting = true;
  }
  return interesting ? tree : undefined;
}

function stripOptionalNulls(value: unknown, tree: OptionalTree): unknown {
  if (Array.isArray(value)) return tree.items ? value.map((v) => stripOptionalNulls(v, tree.items!)) : value;
  if (!isObjectNode(value)) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null && tree.optional.has(key)) continue;
    const child = tree.properties.get(key);
    out[key] = child ? stripOptionalNulls(v, child) : v;
  }
  return out;
}
