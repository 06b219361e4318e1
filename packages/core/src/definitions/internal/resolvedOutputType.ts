import { UserError, type SerializedOutputType } from '@baton/types';
import { checkJsonSchemaDefinition, compileOutputSchema, isJsonSchemaDefinition } from '../outputType.js';
import { isStandardSchema, type CompiledSchema } from './schema.js';
import { isZodObjectSchema } from './zodObjectSchema.js';

/** An agent's output type made ready for a run: what the model is asked for, and the schema that checks the answer. */
export interface ResolvedOutputType {
  readonly serialized: SerializedOutputType;
  /** A Standard Schema's validator; none for text and JSON schema definitions. */
  readonly schema: CompiledSchema | undefined;
}

const TEXT: ResolvedOutputType = { serialized: 'text', schema: undefined };

/** Checks and compiles an output type; a `UserError` naming `owner` says what is wrong with it. */
export function resolveOutputType(outputType: unknown, owner: string): ResolvedOutputType {
  if (outputType === 'text') return TEXT;
  if (isJsonSchemaDefinition(outputType)) {
    const definition = checkJsonSchemaDefinition(outputType, `${owner} outputType`);
    return { serialized: { type: 'json_schema', name: definition.name, strict: definition.strict, schema: definition.schema }, schema: undefined };
  }
  if (!isStandardSchema(outputType)) {
    throw new UserError(`${owner}: \`outputType\` must be 'text', a zod / Standard Schema object or a JSON schema definition.`);
  }
  const schema = compileOutputSchema(outputType, `${owner} outputType`);
  return { serialized: { type: 'json_schema', name: STANDARD_SCHEMA_OUTPUT_NAME, strict: schema.strict, schema: schema.jsonSchema }, schema };
}

/** The name a Standard Schema output type is asked for by. */
const STANDARD_SCHEMA_OUTPUT_NAME = 'output';

/** An output type's name as the model is asked for it, known without compiling the schema (a span names it before the turn). */
export function outputTypeName(outputType: unknown): string {
  if (outputType === 'text') return 'text';
  return isJsonSchemaDefinition(outputType) ? outputType.name : STANDARD_SCHEMA_OUTPUT_NAME;
}

/**
 * Whether the reference leaves this output type unchecked until a run asks the model with it: a zod
 * object (so one whose fields have no JSON form, `z.custom()`, fails that run's turn, not the
 * agent's construction). Every other output type is checked when the agent is made.
 */
export function resolvedAtFirstRequest(outputType: unknown): boolean {
  return typeof outputType === 'object' && outputType !== null && isStandardSchema(outputType) && isZodObjectSchema(outputType);
}
