import { UserError, type JsonObjectSchema } from '@baton/types';

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
