import { UserError, type JsonObjectSchema } from '@baton/types';
import { isZod3Schema, zod3JsonSchema, zod3NullableAsProperty } from './zod3Schema.js';
import { isLegacyZod4Schema, legacyZod4JsonSchema } from './legacyZod4Schema.js';
import { stripSyntheticNulls, syntheticNulls, toStrictToolSchema } from './strictToolSchema.js';
import { discriminatedUnionsAsAnyOf, plainZodForm, structuredOutputsForm } from './zodStrictForms.js';
import { checkStrictZodIntersections, lowerJsonIntersections } from './zodIntersections.js';

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
  // Some libraries' schemas are callable (arktype): a function carrying `~standard` counts too.
  return (
    (typeof value === 'object' || typeof value === 'function') &&
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
 * Turns a Standard Schema or a JSON object schema into a JSON schema for the model and a validator,
 * in the form the reference sends (see `strictToolSchema.ts` and `zodStrictForms.ts`). In strict
 * form every property is required and a `null` the model sends for an optional property that did
 * not accept null is removed before validation, so the user's schema sees exactly what it declared.
 * zod 4 schemas are described by their output side (a defaulted field is required), as zod
 * describes them by default.
 */
export function compileSchema(schema: unknown, options: { strict: boolean; owner: string }): CompiledSchema {
  if (isStandardSchema(schema)) {
    const raw = describeStandardSchema(schema, options.owner, 'output');
    const zod = isZodSchema(schema);
    if (!options.strict) return standardCompiled(schema, raw, false);
    if (zod) checkStrictZodIntersections(schema, options.owner);
    const { offered, source } = strictFormOf(zod ? lowerJsonIntersections(raw) : raw, zod, options.owner, isZod3Schema(schema));
    return standardCompiled(schema, offered, true, source);
  }
  if (isJsonObjectSchema(schema)) {
    const jsonSchema = (options.strict ? toStrictToolSchema(schema as Record<string, unknown>, options.owner) : schema) as JsonObjectSchema;
    const nulls = options.strict ? syntheticNulls(schema) : undefined;
    return {
      jsonSchema,
      strict: options.strict,
      async validate(value) {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          return { ok: false, message: 'expected a JSON object' };
        }
        return { ok: true, value: nulls ? stripSyntheticNulls(value, nulls) : value };
      },
    };
  }
  throw new UserError(`${options.owner}: expected a zod 4 / Standard Schema object or a JSON object schema, got ${describe(schema)}.`);
}

/** A compiled Standard Schema: the JSON schema offered, and validation by the schema itself. */
export function standardCompiled(schema: StandardSchemaLike, offered: Record<string, unknown>, strict: boolean, source?: Record<string, unknown>): CompiledSchema {
  // The nulls strict mode added are found in the schema before it was made strict.
  const nulls = strict && source ? syntheticNulls(source) : undefined;
  return {
    jsonSchema: offered as JsonObjectSchema,
    strict,
    async validate(value) {
      const input = nulls ? stripSyntheticNulls(value, nulls) : value;
      const result = await schema['~standard'].validate(input);
      if (result.issues) return { ok: false, message: formatIssues(result.issues) };
      return { ok: true, value: result.value };
    },
  };
}

/**
 * The strict tool form of a schema's JSON description: zod's own (in the Structured Outputs form
 * when it has one, else the plain form) or another Standard Schema's, as the reference offers them.
 */
export function strictFormOf(raw: Record<string, unknown>, zod: boolean, owner: string, zod3 = false): { offered: Record<string, unknown>; source: Record<string, unknown> } {
  const source = zod ? (structuredFormOf(raw, zod3) ?? plainZodForm(raw)) : raw;
  return { offered: toStrictToolSchema(source, owner), source };
}

/** zod's description in Structured Outputs form (see `zodStrictForms.ts`), zod 3's nullable primitives written as OpenAI's zod 3 helper writes them. */
export function structuredFormOf(raw: Record<string, unknown>, zod3: boolean): Record<string, unknown> | undefined {
  const structured = structuredOutputsForm(raw);
  return structured && zod3 ? (zod3NullableAsProperty(structured) as Record<string, unknown>) : structured;
}

/** zod 3 or zod 4 (zod's Standard Schema vendor). */
export function isZodSchema(schema: StandardSchemaLike): boolean {
  return schema['~standard'].vendor === 'zod' || isZod3Schema(schema);
}

/**
 * A Standard Schema's JSON schema: zod 4 by zod (draft 7, its output side unless that cannot be
 * described, discriminated unions as \`anyOf\`), zod 3 by zod-to-json-schema, any other Standard
 * JSON Schema implementation by its input side (draft 2020-12), as the reference asks them.
 */
export function describeStandardSchema(schema: StandardSchemaLike, owner: string, io: 'input' | 'output'): Record<string, unknown> {
  const zod3 = isZod3Schema(schema);
  const zod4 = !zod3 && schema['~standard'].vendor === 'zod';
  const legacyZod4 = zod4 && isLegacyZod4Schema(schema);
  const describeAs = (legacyZod4 ? legacyZod4JsonSchema(schema, owner) : schema['~standard'].jsonSchema) as
    | (StandardSchemaLike['~standard']['jsonSchema'] & { output?: (o: { target: string }) => Record<string, unknown> })
    | undefined;
  const toJson = zod3 ? () => zod3JsonSchema(schema, owner) : zod4 && io === 'output' ? (describeAs?.output ?? describeAs?.input) : describeAs?.input;
  if (typeof toJson !== 'function') {
    throw new UserError(
      legacyZod4
        ? `${owner}: the schema comes from a zod 4 release before 4.2, which cannot describe itself as JSON Schema, and no zod 4 (\`zod/v4/core\`) could be loaded to describe it: install zod (^3.25 or ^4) beside @baton/core, or upgrade zod to 4.2 or later.`
        : `${owner}: the schema (vendor "${schema['~standard'].vendor}") cannot describe itself as JSON Schema. Standard Schema values must provide both \`~standard.validate\` and \`~standard.jsonSchema\` conversion: use zod 4, zod 3 or the library's Standard JSON Schema adapter.`,
    );
  }
  const target = zod3 || zod4 ? 'draft-07' : 'draft-2020-12';
  let raw: Record<string, unknown>;
  try {
    try {
      raw = toJson({ target });
    } catch (error) {
      // A schema whose output side cannot be described (a transform) is described by its input side.
      if (!zod4 || io !== 'output' || typeof describeAs?.input !== 'function') throw error;
      raw = describeAs.input({ target });
    }
  } catch (error) {
    // For example a date or a bigint: JSON Schema cannot describe it, so no model can be asked for it.
    throw new UserError(`${owner}: the schema cannot be described as JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isJsonObjectSchema(raw)) {
    throw new UserError(
      `${owner}: the schema must describe an object: a Standard Schema must produce a JSON Schema with \`type: "object"\` at the root (got type ${JSON.stringify(raw.type)}); wrap it in an object schema.`,
    );
  }
  return zod4 ? (discriminatedUnionsAsAnyOf(raw) as Record<string, unknown>) : raw;
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

