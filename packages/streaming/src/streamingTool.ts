import {
  defaultToolErrorFunction,
  tool,
  UserError,
  type FunctionTool,
  type InferSchemaOutput,
  type RunContextContract,
  type StandardSchemaLike,
  type ToolCallDetails,
  type ToolEmission,
  type ToolErrorFunction,
  type ToolNotification,
  type ToolOptions,
  type ToolParameters,
} from '@baton/core';
import { StreamingToolEmissionError } from './errors.js';
import { emissionProblem } from './internal/emission.js';

/** The input `execute` receives: the schema's output type, or a plain object for a JSON schema. */
export type StreamingToolInput<TParameters extends ToolParameters> = TParameters extends StandardSchemaLike
  ? InferSchemaOutput<TParameters>
  : Record<string, unknown>;

/**
 * What `execute` returns: an async generator (`async function*`). What it yields reaches the run's
 * stream; what it returns is the tool output, the only thing that enters history.
 */
export type StreamingToolGenerator<TResult> = AsyncGenerator<ToolEmission, TResult, undefined>;

export interface StreamingToolOptions<TParameters extends ToolParameters, TContext = unknown, TResult = unknown>
  extends Omit<ToolOptions<TParameters, TContext, TResult>, 'execute'> {
  /**
   * An async generator function. Yield `{ type: 'notify', data, tag? }` (see `notify()`) to report
   * progress, or the events of a run the tool drives (`yield* nestedStreamedResult`); each yield
   * waits until the run's stream accepted the event, so a slow consumer slows the tool. Return the
   * tool output. `details.signal` fires when the run is cancelled.
   */
  execute: (
    input: StreamingToolInput<TParameters>,
    runContext: RunContextContract<TContext>,
    details: ToolCallDetails,
  ) => StreamingToolGenerator<TResult>;
}

/** A function tool whose calls stream events (framed by `tool_stream_start_event` / `tool_stream_end_event`). */
export type StreamingTool<TContext = unknown> = FunctionTool<TContext> & { streaming: true };

/** A progress notification for a streaming tool to yield; it becomes a `notify_stream_event`. */
export function notify(data: unknown, tag?: string): ToolNotification {
  return tag === undefined ? { type: 'notify', data } : { type: 'notify', data, tag };
}

/**
 * Defines a streaming tool: `tool()` with an async generator as `execute`. Approvals, tool
 * guardrails, argument validation, error handling (`errorFunction`) and concurrency are exactly
 * those of `tool()`. In a non-streamed run the yields are checked and dropped; the output is kept.
 *
 * A yield that is not an event fails the run with a `ToolCallError` wrapping a
 * `StreamingToolEmissionError` naming the tool (a bug in the tool, not something to tell the model).
 */
export function streamingTool<TParameters extends ToolParameters, TContext = unknown, TResult = unknown>(
  options: StreamingToolOptions<TParameters, TContext, TResult>,
): StreamingTool<TContext> {
  if (typeof options !== 'object' || options === null) throw new UserError('streamingTool(): expected an options object.');
  const { execute, errorFunction, ...rest } = options;
  if (typeof execute !== 'function') {
    throw new UserError(`streamingTool(): \`execute\` must be an async generator function, got ${execute === null ? 'null' : typeof execute}.`);
  }
  const name = options.name ?? execute.name;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new UserError('streamingTool(): `name` is required (or pass a named `execute` function).');
  }
  let toolName = name;
  const handleError = wrapErrorFunction(errorFunction);
  const base = tool<TParameters, TContext, TResult>({
    ...rest,
    name,
    ...(handleError === null ? { errorFunction: null } : { errorFunction: handleError }),
    execute: (input, runContext, details) =>
      drive<TResult>(execute(input as StreamingToolInput<TParameters>, runContext, details), details, toolName),
  });
  toolName = base.name;
  return Object.assign(base, { streaming: true as const });
}

/** Our own contract errors fail the run; everything else goes to the user's (or the default) error function. */
function wrapErrorFunction<TContext>(errorFunction: ToolErrorFunction<TContext> | null | undefined): ToolErrorFunction<TContext> | null {
  if (errorFunction === null) return null;
  if (errorFunction !== undefined && typeof errorFunction !== 'function') {
    throw new UserError(`streamingTool(): \`errorFunction\` must be a function or null, got ${typeof errorFunction}.`);
  }
  const fallback = errorFunction ?? (defaultToolErrorFunction as ToolErrorFunction<TContext>);
  return (context, error) => {
    if (error instanceof StreamingToolEmissionError) throw error;
    return fallback(context, error);
  };
}

/** Steps the generator: checks and emits each yield (waiting for the stream), returns its return value. */
async function drive<TResult>(generator: unknown, details: ToolCallDetails, toolName: string): Promise<TResult> {
  if (!isIterator(generator)) {
    const got = typeof (generator as PromiseLike<unknown> | null)?.then === 'function' ? 'a Promise' : typeof generator;
    throw new StreamingToolEmissionError(toolName, `\`execute\` returned ${got}; it must be an async generator function (async function*)`);
  }
  let settled = false;
  try {
    for (;;) {
      details.signal.throwIfAborted();
      let step: IteratorResult<unknown, TResult>;
      try {
        step = await generator.next();
      } catch (error) {
        settled = true; // the generator threw: it is finished
        throw error;
      }
      if (step.done) {
        settled = true;
        return step.value;
      }
      const problem = emissionProblem(step.value);
      if (problem !== undefined) throw new StreamingToolEmissionError(toolName, problem);
      await details.emit(step.value as ToolEmission);
    }
  } finally {
    // Leaving early (cancelled, bad yield): let the generator run its `finally` blocks.
    if (!settled) await Promise.resolve(generator.return?.(undefined as never)).catch(() => undefined);
  }
}

function isIterator(value: unknown): value is AsyncIterator<unknown> | Iterator<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { next?: unknown }).next === 'function';
}
