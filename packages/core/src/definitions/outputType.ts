import { UserError, type JsonObjectSchema } from '@baton/types';
import { describeStandardSchema, isZodSchema, structuredFormOf, standardCompiled, strictFormOf, type CompiledSchema, type StandardSchemaLike } from './internal/schema.js';
import { plainZodForm } from './internal/zodStrictForms.js';
import { isZod3Schema } from './internal/zod3Schema.js';

/**
 * An output type given as a JSON schema (the reference's `JsonSchemaDefinition`): sent to the
 * model as it is, and the model's final text parsed as JSON into `finalOutput`.
 */
export interface JsonSchemaDefinition {
  type: 'json_schema';
  name: string;
  strict: boolean;
  schema: JsonObjectSchema;
}

export function isJsonSchemaDefinition(value: unknown): value is JsonSchemaDefinition {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'json_schema';
}

/** Checks a JSON schema output type's shape, naming the field that is wrong. */
export function checkJsonSchemaDefinition(value: JsonSchemaDefinition, owner: string): JsonSchemaDefinition {
  if (typeof value.name !== 'string' || value.name === '') throw new UserError(`${owner}: a json_schema output type needs a non-empty \`name\`.`);
  if (typeof value.strict !== 'boolean') throw new UserError(`${owner}: a json_schema output type needs a boolean \`strict\`.`);
  const schema = value.schema as { type?: unknown } | undefined;
  if (typeof schema !== 'object' || schema === null || schema.type !== 'object') {
    throw new UserError(`${owner}: a json_schema output type needs a \`schema\` of type "object".`);
  }
  return value;
}

/**
 * A schema output type, sent as \`output\` the way the reference sends it. A zod schema (4 or 3) is
 * strict when zod's description of it can be written in OpenAI's Structured Outputs form (plain
 * objects, nested objects, arrays, enums, unions, nullable and defaulted fields), and is sent in the
 * plain form, not strict, when it cannot (an optional field that is not nullable, a record, a tuple).
 * Any other Standard Schema is sent in strict form.
 */
export function compileOutputSchema(schema: StandardSchemaLike, owner: string): CompiledSchema {
  if (isZodSchema(schema)) {
    const raw = describeStandardSchema(schema, owner, 'output');
    const structured = structuredFormOf(raw, isZod3Schema(schema));
    return structured ? standardCompiled(schema, structured, true, structured) : standardCompiled(schema, plainZodForm(raw), false);
  }
  const raw = describeStandardSchema(schema, owner, 'input');
  const { offered, source } = strictFormOf(raw, false, owner);
  return standardCompiled(schema, offered, true, source);
}
