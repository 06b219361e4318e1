import { InvalidToolInputError, type AgentInputItem, type JsonObjectSchema } from '@baton/types';
import type { CompiledSchema } from './schema.js';

/** What an `inputBuilder` receives: the validated arguments, and the JSON schema when `includeInputSchema` is on. */
export interface AgentToolInputBuilderOptions<TParams = unknown> {
  params: TParams;
  jsonSchema?: JsonObjectSchema;
}

/** Builds the nested agent's input from a structured tool call. */
export type AgentToolInputBuilder<TParams = unknown> = (options: AgentToolInputBuilderOptions<TParams>) => string | AgentInputItem[] | Promise<string | AgentInputItem[]>;

/**
 * The nested run's input for a call: the builder's, when there is one; the `input` string when the
 * arguments are only that; otherwise the arguments as JSON, with the schema when asked for it.
 */
export async function agentToolInput(
  toolName: string,
  rawArguments: string,
  schema: CompiledSchema | undefined,
  builder: AgentToolInputBuilder | undefined,
  includeInputSchema: boolean,
): Promise<string | AgentInputItem[]> {
  const params = await parseArguments(toolName, rawArguments, schema);
  const jsonSchema = includeInputSchema && schema ? schema.jsonSchema : undefined;
  if (builder) return builder(jsonSchema ? { params, jsonSchema } : { params });
  if (isOnlyInput(params)) return params.input;
  const data = JSON.stringify(params, null, 2);
  if (!jsonSchema) return `Input for this task (JSON):\n${data}`;
  return `Input for this task (JSON):\n${data}\n\nIts JSON schema:\n${JSON.stringify(jsonSchema, null, 2)}`;
}

function isOnlyInput(value: unknown): value is { input: string } {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 1 && typeof (value as { input?: unknown }).input === 'string';
}

async function parseArguments(toolName: string, rawArguments: string, schema: CompiledSchema | undefined): Promise<unknown> {
  let json: unknown;
  try {
    json = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
  } catch (error) {
    throw new InvalidToolInputError(`Invalid JSON input for tool "${toolName}": ${(error as Error).message}`, undefined, error);
  }
  if (!schema) {
    const value = (json as { input?: unknown } | null)?.input;
    if (typeof value !== 'string') throw new InvalidToolInputError(`Invalid input for tool "${toolName}": input: expected a string`);
    return { input: value };
  }
  const result = await schema.validate(json);
  if (!result.ok) throw new InvalidToolInputError(`Invalid input for tool "${toolName}": ${result.message}`);
  return result.value;
}
