import * as Effect from 'effect/Effect';
import type { RunMessageOutputItem, RunToolCallOutputItem, LocalToolCallItem } from '@baton/types';
import type { LocalTool } from '../../../definitions/internal/localTools.js';
import { getLogger } from '../../../definitions/logger.js';
import { itemEvent } from '../../../state/internal/items.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import type { LoopEnv } from './loopEnv.js';
import { annotate, span } from './span.js';

/**
 * Announces a local tool's output item (`tool_output`) and makes it the call's outcome; `followUp`
 * (a rejected computer call's message) enters history right after it.
 */
export function commitLocalOutput(item: RunToolCallOutputItem, env: LoopEnv, followUp?: RunMessageOutputItem): Effect.Effect<ToolRunOutcome> {
  return env.emit(itemEvent(item)).pipe(
    Effect.andThen(followUp ? env.emit(itemEvent(followUp)) : Effect.void),
    Effect.as({ type: 'output' as const, tool: undefined, output: item.output, item, ...(followUp ? { followUp } : {}) }),
  );
}

/** A local tool call's `baton.tool` span: from the decision to run it to its committed output. */
export function localToolSpan(tool: LocalTool, call: LocalToolCallItem, input: unknown, env: LoopEnv) {
  return span(env, 'baton.tool', () => ({
    'baton.tool.name': tool.name,
    'baton.tool.type': tool.type,
    'baton.tool.call_id': call.callId,
    'baton.tool.input': JSON.stringify(input ?? null),
  }));
}

/** A local tool's failure the model is told about: on the span and in the log (the message only when tool data may be logged). */
export function noteLocalToolError(tool: LocalTool, call: LocalToolCallItem, error: unknown, env: LoopEnv): Effect.Effect<void> {
  const message = error instanceof Error ? error.message || error.toString() : String(error);
  return annotate(env, () => ({ 'baton.tool.error': { name: error instanceof Error ? error.name : 'Error', message } })).pipe(
    Effect.andThen(
      Effect.sync(() => {
        const logger = getLogger('openai-agents:core');
        const what = logger.dontLogToolData ? (error instanceof Error ? error.name : 'Error') : message;
        logger.warn(`The ${tool.type} tool "${tool.name}" (call ${call.callId}) failed: ${what}; the model was told.`);
      }),
    ),
  );
}

/** The text of an error, for the model. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.toString();
  return String(error);
}
