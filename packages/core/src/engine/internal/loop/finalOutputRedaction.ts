import * as Effect from 'effect/Effect';
import { ModelBehaviorError, UserError } from '@baton/types';
import { Agent } from '../../../definitions/agent.js';
import { getLogger } from '../../../definitions/logger.js';

/**
 * Structured final output is model data: when it fails to parse, the error says only that it did
 * not match the schema, unless model data may be logged (`OPENAI_AGENTS_DONT_LOG_MODEL_DATA=0` or
 * `setSensitiveDataLoggingEnabled(true)`). The decision is taken when parsing starts and can only
 * tighten while it runs: a parser (or an error handler) that turns logging on cannot reveal what
 * was read under redaction. A redacted failure is never inspected (a thrown value's getters may
 * throw, or hold the secret).
 */
export const REDACTED_FINAL_OUTPUT_MESSAGE = 'Invalid output type: final assistant output did not match the expected schema.';
export const REDACTED_DETAILS_MESSAGE = 'Error details are redacted.';

const logger = getLogger('openai-agents:core');
const redacted = new WeakSet<object>();

/** Whether model data is kept out of errors and logs right now. */
export function modelDataRedacted(): boolean {
  return logger.dontLogModelData;
}

/** The error of a final output that failed to parse while model data was redacted (no cause, no data). */
export function redactedFinalOutputError(): ModelBehaviorError {
  const error = new ModelBehaviorError(REDACTED_FINAL_OUTPUT_MESSAGE);
  redacted.add(error);
  return error;
}

/** Whether this error was produced under redaction (recovery from it stays redacted). */
export function isRedactedFinalOutputError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && redacted.has(error);
}

/** What a redacted recovery (an invalid-output error handler) fails with: no cause, no data. */
export function redactedDetailsError(): UserError {
  return new UserError(REDACTED_DETAILS_MESSAGE);
}

export type FinalOutputParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly describe: () => string };

/**
 * Parses a final text with the agent's parser: its own `processFinalOutput` when a subclass or the
 * instance replaced it, else the output type's (asynchronous) validation. What the parser threw is
 * kept unread; `describe` reads it only when asked (diagnostic mode).
 */
export function parseWithAgent(agent: Agent<any, any>, text: string): Effect.Effect<FinalOutputParse> {
  if (agent.processFinalOutput === Agent.prototype.processFinalOutput) {
    return Effect.promise(() => agent.parseFinalOutput(text)).pipe(
      Effect.map((parsed): FinalOutputParse => (parsed.ok ? parsed : { ok: false, describe: () => parsed.message })),
    );
  }
  return Effect.sync((): FinalOutputParse => {
    try {
      return { ok: true, value: agent.processFinalOutput(text) };
    } catch (thrown) {
      return { ok: false, describe: () => describeThrown(thrown) };
    }
  });
}

/**
 * Parses the model's final text into the agent's output type. A failure is a `ModelBehaviorError`
 * naming the agent and the problem, or the redacted one when model data was (or became) redacted.
 */
export function parseFinalOutputRedacted(
  agent: Agent<any, any>,
  text: string,
): Effect.Effect<{ readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: ModelBehaviorError }> {
  return Effect.suspend(() => {
    const redactFromStart = modelDataRedacted();
    return parseWithAgent(agent, text).pipe(
      Effect.map((parsed) => {
        if (parsed.ok) return parsed;
        if (redactFromStart || modelDataRedacted()) return { ok: false as const, error: redactedFinalOutputError() };
        return { ok: false as const, error: new ModelBehaviorError(`Agent "${agent.name}": ${parsed.describe()}`) };
      }),
    );
  });
}

/** A thrown value's message, read defensively (diagnostic mode only). */
function describeThrown(thrown: unknown): string {
  try {
    return thrown instanceof Error ? thrown.message : String(thrown);
  } catch {
    return 'the final output parser failed with an unreadable error';
  }
}
