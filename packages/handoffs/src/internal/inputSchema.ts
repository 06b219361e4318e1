import { ModelBehaviorError, type JsonObjectSchema, type RunContextContract, type StandardSchemaLike } from '@baton/core';
import { compileSchema } from '@baton/core/internal';

/** What `inputType` accepts: a zod 4 / Standard Schema object, or a JSON object schema. */
export type HandoffInputType = StandardSchemaLike | JsonObjectSchema;

/** A handoff's input type, ready to offer to the model and to check what it sends back. */
export interface HandoffInputParser {
  /** Strict JSON schema (every property required, optional ones nullable, no extras). */
  readonly jsonSchema: JsonObjectSchema;
  /** Parses and validates the model's arguments; `ModelBehaviorError` naming the handoff when they are unusable. */
  parse(context: RunContextContract<any>, args: string, toolName: string): Promise<unknown>;
}

/** Compiles `inputType` with core's strict-schema compiler (the one tools and output types use). */
export function compileHandoffInput(inputType: HandoffInputType, label: string): HandoffInputParser {
  const compiled = compileSchema(inputType, { strict: true, owner: `${label} \`inputType\`` });
  return {
    jsonSchema: compiled.jsonSchema,
    async parse(_context, args, toolName) {
      if (typeof args !== 'string' || args.trim() === '') {
        throw new ModelBehaviorError(`Handoff "${toolName}" expected non-empty input matching its inputType, got ${JSON.stringify(args)}.`);
      }
      let value: unknown;
      try {
        value = JSON.parse(args);
      } catch (error) {
        throw new ModelBehaviorError(`Handoff "${toolName}" received invalid JSON: ${(error as Error).message}`);
      }
      const result = await compiled.validate(value);
      if (!result.ok) throw new ModelBehaviorError(`Handoff "${toolName}" received input that does not match its inputType: ${result.message}`);
      return result.value;
    },
  };
}
