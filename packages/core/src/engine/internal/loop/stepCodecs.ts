import { InvalidToolInputError, Usage, type ModelResponse, type ModelStreamEvent, type UsageData } from '@baton/types';
import type { JsonValue, StepCodec } from '../../../definitions/stepRunner.js';

// How each kind of step's result is written as JSON and read back on replay.

/** Plain data as JSON (undefined as null; what JSON cannot hold, such as class prototypes, is lost). */
export function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

/** For results that are plain data already. */
export const jsonCodec: StepCodec<any> = { encode: toJson, decode: (json) => json };

export const stringCodec: StepCodec<string> = { encode: (value) => value, decode: (json) => String(json) };

export const numberCodec: StepCodec<number> = { encode: (value) => value, decode: (json) => Number(json) };

/** A model response: its usage comes back as a `Usage`. */
export const modelResponseCodec: StepCodec<ModelResponse> = {
  encode: (response) => toJson(response),
  decode: (json) => {
    const { usage, ...rest } = json as unknown as ModelResponse;
    return { ...rest, usage: new Usage(usage as UsageData) };
  },
};

/**
 * A streamed model call is recorded as the model events it produced (the successful attempt's),
 * so a replay sends the caller the same events; `live` marks a result the effect itself produced.
 */
export interface StreamedModelCall {
  readonly events: ModelStreamEvent[];
  readonly done: ModelResponse | undefined;
  readonly live: boolean;
}

export const streamedModelCallCodec: StepCodec<StreamedModelCall> = {
  encode: (call) => toJson(call.events),
  decode: (json) => ({ events: json as unknown as ModelStreamEvent[], done: undefined, live: false }),
};

/**
 * A tool invocation's result: its output (an error the tool's error function turned into output is
 * a result, with that error's name and message), or the invalid-input message the model is told.
 */
export type ToolStepResult =
  | {
      readonly type: 'output';
      readonly output: unknown;
      readonly handledError: unknown;
      readonly handledByCustomFunction?: boolean | undefined;
      /** The arguments `execute` received, kept for a tool with a `customDataExtractor` (recorded, so a replayed call gives it the same). */
      readonly parsedInput?: { readonly value: unknown } | undefined;
    }
  | { readonly type: 'invalid_input'; readonly error: InvalidToolInputError };

export const toolStepCodec: StepCodec<ToolStepResult> = {
  encode: (result) => {
    if (result.type === 'invalid_input') return { invalidInput: result.error.message };
    const json: { [key: string]: JsonValue } = { output: toJson(result.output) };
    if (result.output === undefined) json.undefined = true;
    if (result.handledError !== undefined) json.handledError = errorJson(result.handledError);
    if (result.handledByCustomFunction === true) json.customErrorFunction = true;
    if (result.parsedInput !== undefined) json.parsedInput = { value: toJson(result.parsedInput.value) };
    return json;
  },
  decode: (json) => {
    const recorded = json as {
      output?: unknown;
      undefined?: boolean;
      invalidInput?: string;
      handledError?: { name: string; message: string };
      customErrorFunction?: boolean;
      parsedInput?: { value?: unknown };
    };
    if (typeof recorded.invalidInput === 'string') return { type: 'invalid_input', error: new InvalidToolInputError(recorded.invalidInput) };
    return {
      type: 'output',
      output: recorded.undefined === true ? undefined : recorded.output,
      handledError: recorded.handledError === undefined ? undefined : errorFrom(recorded.handledError),
      handledByCustomFunction: recorded.customErrorFunction === true,
      parsedInput: recorded.parsedInput === undefined ? undefined : { value: recorded.parsedInput.value },
    };
  },
};

function errorJson(error: unknown): JsonValue {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}

function errorFrom(json: { name: string; message: string }): Error {
  const error = new Error(json.message);
  error.name = json.name;
  return error;
}
