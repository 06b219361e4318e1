import { UserError } from '@baton/core';
import { z } from 'zod';

/**
 * A short way to describe the JSON object every Codex turn must answer with: named properties of
 * primitive types (or arrays of them), each with an optional description and enum.
 */
const primitiveField = z.discriminatedUnion('type', [
  z.object({ type: z.literal('string'), description: z.string().trim().optional(), enum: z.array(z.string().trim().min(1)).min(1).optional() }).strict(),
  z.object({ type: z.literal('number'), description: z.string().trim().optional(), enum: z.array(z.number()).min(1).optional() }).strict(),
  z.object({ type: z.literal('integer'), description: z.string().trim().optional(), enum: z.array(z.number().int()).min(1).optional() }).strict(),
  z.object({ type: z.literal('boolean'), description: z.string().trim().optional(), enum: z.array(z.boolean()).min(1).optional() }).strict(),
]);

const arrayField = z.object({ type: z.literal('array'), description: z.string().trim().optional(), items: primitiveField }).strict();

export const outputSchemaDescriptor = z
  .object({
    title: z.string().trim().optional(),
    description: z.string().trim().optional(),
    properties: z
      .array(z.object({ name: z.string().trim().min(1), description: z.string().trim().optional(), schema: z.union([primitiveField, arrayField]) }).strict())
      .min(1),
    required: z.array(z.string().trim().min(1)).optional(),
  })
  .strict()
  .superRefine((descriptor, ctx) => {
    const names = descriptor.properties.map((property) => property.name);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate !== undefined) ctx.addIssue({ code: 'custom', path: ['properties'], message: `The output schema names the property "${duplicate}" twice.` });
    for (const name of descriptor.required ?? []) {
      if (!names.includes(name)) ctx.addIssue({ code: 'custom', path: ['required'], message: `The output schema requires "${name}", which is not among its properties.` });
    }
  });

export type CodexOutputSchemaDescriptor = z.infer<typeof outputSchemaDescriptor>;
/** A JSON object schema, as Codex receives it. */
export type CodexOutputSchema = Record<string, unknown>;

type Field = CodexOutputSchemaDescriptor['properties'][number]['schema'];

function fieldSchema(field: Field): Record<string, unknown> {
  const { type, description } = field;
  const schema: Record<string, unknown> = { type };
  if (field.type === 'array') schema.items = fieldSchema(field.items);
  else if (field.enum) schema.enum = field.enum;
  if (description) schema.description = description;
  return schema;
}

function fromDescriptor(descriptor: CodexOutputSchemaDescriptor): CodexOutputSchema {
  const properties: Record<string, unknown> = {};
  for (const property of descriptor.properties) {
    properties[property.name] = { ...fieldSchema(property.schema), ...(property.description ? { description: property.description } : {}) };
  }
  const required = [...new Set(descriptor.required ?? [])];
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(descriptor.title ? { title: descriptor.title } : {}),
    ...(descriptor.description ? { description: descriptor.description } : {}),
  };
}

function isZodObject(value: unknown): value is z.ZodObject {
  return value instanceof z.ZodObject || (typeof value === 'object' && value !== null && (value as { _zod?: { def?: { type?: unknown } } })._zod?.def?.type === 'object');
}

function fromZod(schema: z.ZodObject): CodexOutputSchema {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Record<string, unknown>;
  } catch (error) {
    throw new UserError(`Codex tool: the output schema (a zod object) has no JSON Schema form: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { ...json, required: json.required ?? [], additionalProperties: false };
}

/**
 * The JSON schema handed to every Codex turn: from a zod object, a JSON object schema (which must
 * forbid extra properties, as Codex's structured output requires), or a descriptor.
 */
export function resolveOutputSchema(option: unknown): CodexOutputSchema | undefined {
  if (option === undefined || option === null) return undefined;
  if (isZodObject(option)) return fromZod(option);
  if (typeof option === 'object' && (option as { type?: unknown }).type === 'object') {
    if ((option as { additionalProperties?: unknown }).additionalProperties !== false) {
      throw new UserError('Codex tool: a JSON output schema must set "additionalProperties" to false.');
    }
    return option as CodexOutputSchema;
  }
  const parsed = outputSchemaDescriptor.safeParse(option);
  if (!parsed.success) {
    throw new UserError(`Codex tool: the output schema is neither a zod object, a JSON object schema nor a valid descriptor: ${z.prettifyError(parsed.error)}`);
  }
  return fromDescriptor(parsed.data);
}
