import { UserError, type JsonObjectSchema } from '@baton/types';
import { compileSchema, type CompiledSchema, type StandardSchemaLike } from './internal/schema.js';
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
 * A schema output type, sent as `output` the way the reference sends it: zod 4 as zod describes its
 * output side, not strict; zod 3 in strict form unless it has optional fields (OpenAI's zod helper,
 * which the reference uses, refuses those, and the reference then sends them as they are, not
 * strict); any other Standard Schema in strict form.
 */
export function compileOutputSchema(schema: StandardSchemaLike, owner: string): CompiledSchema {
  if (isZod3Schema(schema)) {
    const loose = compileSchema(schema, { strict: false, owner });
    return hasOptionalProperty(loose.jsonSchema) ? loose : compileSchema(schema, { strict: true, owner });
  }
  const zod4 = schema['~standard'].vendor === 'zod';
  return compileSchema(schema, { strict: !zod4, io: zod4 ? 'output' : 'input', owner });
}

function hasOptionalProperty(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasOptionalProperty);
  if (typeof node !== 'object' || node === null) return false;
  const { properties, required } = node as { properties?: unknown; required?: unknown };
  if (typeof properties === 'object' && properties !== null) {
    const requiredNames = new Set(Array.isArray(required) ? required : []);
    if (Object.keys(properties).some((name) => !requiredNames.has(name))) return true;
  }
  return Object.values(node).some(hasOptionalProperty);
}
