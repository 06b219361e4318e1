import type { StandardSchemaLike } from '@baton/core';
import { defineCheck, type GuardrailCheck } from '../check.js';
import { assertSupportedSchema, validateJson, type JsonSchema, type SchemaIssue } from '../internal/jsonSchemaValidator.js';
import { optionalBoolean } from '@baton/core/internal';

export type { JsonSchema, SchemaIssue };

export interface JsonSchemaCheckOptions {
  name?: string;
  /** Parse string values as JSON before validating them (a text agent's final output). Defaults to `true`. */
  parseStrings?: boolean;
  rejectMessage?: string;
}

export interface JsonSchemaCheckInfo {
  valid: boolean;
  issues: SchemaIssue[];
}

/** The Standard Schema interface may sit on an object or on a function (a callable schema, as ArkType's). */
function isStandardSchema(value: unknown): value is StandardSchemaLike {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as StandardSchemaLike)['~standard']?.validate === 'function';
}

/**
 * Trips when the value does not match a schema: a Standard Schema (zod 4, valibot, ... validated
 * with `~standard.validate`) or a plain JSON Schema using `type`, `properties`, `required`,
 * `items`, `enum`, `const` and `additionalProperties` (other keywords are refused at construction).
 * A `{ type: 'json_schema', schema }` wrapper is accepted too.
 */
export function jsonSchemaCheck(schema: StandardSchemaLike | JsonSchema, options: JsonSchemaCheckOptions = {}): GuardrailCheck<JsonSchemaCheckInfo> {
  const owner = 'jsonSchemaCheck';
  const parseStrings = optionalBoolean(options.parseStrings, `${owner}: \`parseStrings\``) ?? true;
  const validate = validatorFor(schema, owner);
  return defineCheck({
    name: options.name ?? 'json_schema',
    rejectMessage: options.rejectMessage ?? 'The value does not match the expected schema.',
    inspect: async ({ value }) => {
      let subject = value;
      if (parseStrings && typeof value === 'string') {
        try {
          subject = JSON.parse(value);
        } catch (error) {
          const issues = [{ path: '', message: `not valid JSON (${(error as Error).message})` }];
          return { tripped: true, info: { valid: false, issues } };
        }
      }
      const issues = await validate(subject);
      return { tripped: issues.length > 0, info: { valid: issues.length === 0, issues } };
    },
  });
}

function validatorFor(schema: unknown, owner: string): (value: unknown) => Promise<SchemaIssue[]> | SchemaIssue[] {
  if (isStandardSchema(schema)) {
    return async (value) => {
      const result = await schema['~standard'].validate(value);
      return (result.issues ?? []).map((issue) => ({ path: pathOf(issue.path), message: issue.message }));
    };
  }
  const plain =
    typeof schema === 'object' && schema !== null && (schema as JsonSchema).type === 'json_schema' && 'schema' in schema
      ? (schema as { schema: unknown }).schema
      : schema;
  assertSupportedSchema(plain, owner);
  return (value) => validateJson(plain, value);
}

function pathOf(path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined): string {
  if (!path || path.length === 0) return '';
  return path.map((segment) => `/${String(typeof segment === 'object' && segment !== null ? segment.key : segment)}`).join('');
}
