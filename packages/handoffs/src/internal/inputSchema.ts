import {
  ModelBehaviorError,
  UserError,
  tool,
  type FunctionTool,
  type JsonObjectSchema,
  type RunContextContract,
  type StandardSchemaLike,
  type ToolParameters,
} from '@baton/core';

/** What `inputType` accepts: a zod 4 / Standard Schema object, or a JSON object schema. */
export type HandoffInputType = StandardSchemaLike | JsonObjectSchema;

/** A handoff's input type, ready to offer to the model and to check what it sends back. */
export interface HandoffInputParser {
  /** Strict JSON schema (every property required, optional ones nullable, no extras). */
  readonly jsonSchema: JsonObjectSchema;
  /** Parses and validates the model's arguments; `ModelBehaviorError` naming the handoff when they are unusable. */
  parse(context: RunContextContract<any>, args: string, toolName: string): Promise<unknown>;
}

const COMPILER_NAME = 'handoff_input';

/**
 * Compiles `inputType` with core's strict-schema conversion. Core exports that conversion only
 * through `tool()`, so the schema is wrapped in a tool whose `execute` returns the validated input.
 */
export function compileHandoffInput(inputType: HandoffInputType, label: string): HandoffInputParser {
  let compiled: FunctionTool<any>;
  try {
    compiled = tool({
      name: COMPILER_NAME,
      description: '',
      parameters: inputType as ToolParameters,
      strict: true,
      errorFunction: null,
      execute: (input: unknown) => input,
    });
  } catch (error) {
    if (error instanceof UserError) {
      throw new UserError(`${label} \`inputType\`: ${error.message.replace(/^tool "[^"]*" parameters: /, '')}`);
    }
    throw error;
  }
  return {
    jsonSchema: compiled.parameters,
    async parse(context, args, toolName) {
      if (typeof args !== 'string' || args.trim() === '') {
        throw new ModelBehaviorError(`Handoff "${toolName}" expected non-empty input matching its inputType, got ${JSON.stringify(args)}.`);
      }
      try {
        JSON.parse(args);
      } catch (error) {
        throw new ModelBehaviorError(`Handoff "${toolName}" received invalid JSON: ${(error as Error).message}`);
      }
      const details = {
        toolCall: { type: 'function_call' as const, callId: toolName, name: toolName, arguments: args },
        signal: new AbortController().signal,
        emit: async () => undefined,
      };
      try {
        return await compiled.invoke(context, args, details);
      } catch (error) {
        if (error instanceof Error && error.name === 'InvalidToolInputError') {
          const reason = error.message.replace(/^Invalid (JSON )?input for tool "[^"]*": /, '');
          throw new ModelBehaviorError(`Handoff "${toolName}" received input that does not match its inputType: ${reason}`);
        }
        throw error;
      }
    },
  };
}
