import * as Effect from 'effect/Effect';
import type { ToolErrorFormatter, ToolErrorFormatterArgs } from '../../definitions/toolErrorFormatter.js';

/**
 * The text for a tool error: the formatter's, when it returns a string; the default otherwise. A
 * formatter that throws or returns something else never fails the run (as in the reference).
 */
export function formatToolError(formatter: ToolErrorFormatter<any> | undefined, args: ToolErrorFormatterArgs<any>): Effect.Effect<string> {
  if (!formatter) return Effect.succeed(args.defaultMessage);
  return Effect.tryPromise(async () => formatter(args)).pipe(
    Effect.flatMap((text) => {
      if (typeof text === 'string') return Effect.succeed(text);
      if (text === undefined) return Effect.succeed(args.defaultMessage);
      return Effect.logWarning(`toolErrorFormatter returned a ${typeof text}, not a string; the default ${args.kind} text is used.`).pipe(
        Effect.as(args.defaultMessage),
      );
    }),
    Effect.catch((error) =>
      Effect.logWarning(`toolErrorFormatter threw while formatting a ${args.kind} error: ${String((error as { cause?: unknown }).cause ?? error)}`).pipe(
        Effect.as(args.defaultMessage),
      ),
    ),
  );
}
