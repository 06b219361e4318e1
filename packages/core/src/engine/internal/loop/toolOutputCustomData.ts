import * as Effect from 'effect/Effect';
import { InvalidToolInputError, UserError, type FunctionCallItem, type FunctionTool, type ToolOutputCustomData, type ToolOutputCustomDataExtractor } from '@baton/types';
import { asRunFailure, type RunFailure } from '../failures.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { toolCallOutput } from '../../../state/internal/items.js';
import { INVALID_TOOL_INPUT_MESSAGE } from '../../../definitions/internal/invalidToolInput.js';
import { outputRawItem } from './toolCallOutputs.js';
import { functionToolFailure } from './invokeTool.js';
import { withSpanContext } from './span.js';
import { inputPreparerOf } from '../../../definitions/internal/preparedToolInput.js';
import { copyForExtractor } from '../../../definitions/internal/extractorCopy.js';
import type { LoopEnv } from './loopEnv.js';
import { isPlainObject } from '../../../definitions/internal/plainObject.js';

/**
 * A tool's `customDataExtractor`, asked for one output (the rules are the reference's): null,
 * undefined and `{}` attach nothing; anything but a plain object with string keys whose values are
 * JSON (finite numbers, no functions, symbols or bigints, no class instances) fails the run with a
 * `UserError` naming the rule; what is kept is a JSON copy, so later changes to the
 * returned object do not reach the item. A tool without an extractor costs no step. A throw or a
 * refused answer fails the run as `asFailure` says (the run's failure, unchanged, by default).
 */
export function extractedCustomData<C>(
  extractor: ToolOutputCustomDataExtractor<C> | undefined,
  context: () => C | Promise<C>,
  env: LoopEnv,
  asFailure: (thrown: unknown) => RunFailure = asRunFailure,
): Effect.Effect<ToolOutputCustomData | undefined, RunFailure> {
  if (extractor === undefined) return NONE;
  return withSpanContext(env, (enter) =>
    Effect.tryPromise({
      try: async () => {
        const given = await context();
        return normalizedCustomData(await enter(() => extractor(given)));
      },
      catch: asFailure,
    }),
  );
}

const NONE: Effect.Effect<undefined> = Effect.succeed(undefined);

export function normalizedCustomData(value: unknown): ToolOutputCustomData | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isPlainObject(value)) throw new UserError('customDataExtractor must return an object or null.');
  if (Reflect.ownKeys(value).some((key) => typeof key !== 'string')) throw new UserError('customDataExtractor must return an object with string keys.');
  if (Object.keys(value).length === 0) return undefined;
  assertJson(value);
  return JSON.parse(JSON.stringify(value)) as ToolOutputCustomData;
}

function assertJson(value: unknown): void {
  // As the reference: an undefined value passes (the JSON copy leaves it out of an object, and makes it null in a list).
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number' && Number.isFinite(value)) return;
  if (Array.isArray(value)) {
    for (const entry of value) assertJson(entry);
    return;
  }
  if (isPlainObject(value)) {
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key !== 'string') throw notJson();
      assertJson((value as Record<string, unknown>)[key]);
    }
    return;
  }
  throw notJson();
}

function notJson(): UserError {
  return new UserError('customDataExtractor must return JSON-compatible data.');
}

/**
 * A function tool's custom data for the output the model will be sent. `parsedInput` is what
 * `execute` received; when the tool did not run (a tool input guardrail rejected the call) the
 * extractor still gets the arguments as `execute` would have (as the reference gives them), if the
 * tool can read them. The extractor gets copies; a call whose invalid arguments are redacted (tool
 * data is not logged) is shown with empty `arguments`, as its error is. A throw or a refused
 * answer fails the call as a tool's own failure would (`ToolCallError`, as the reference).
 */
export function functionToolCustomData(
  tool: FunctionTool<any>,
  call: FunctionCallItem,
  output: unknown,
  parsedInput: { readonly value: unknown } | undefined,
  handledError: unknown,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<ToolOutputCustomData | undefined, RunFailure> {
  return extractedCustomData(
    tool.customDataExtractor,
    async () => {
      const input = parsedInput ?? (await inputPreparerOf(tool)?.(call.arguments));
      const redacted = handledError instanceof InvalidToolInputError && handledError.message === INVALID_TOOL_INPUT_MESSAGE;
      return {
        runContext: record.context,
        tool,
        toolCall: copyForExtractor(redacted ? { ...call, arguments: '' } : call),
        input: copyForExtractor(input !== undefined && 'value' in input ? input.value : undefined),
        output: copyForExtractor(output),
        rawItem: copyForExtractor(outputRawItem(call, toolCallOutput(output))),
      };
    },
    env,
    functionToolFailure,
  );
}
