import type { SdkName } from '../protocol.js';
import type { GuardrailPlan, GuardrailRunOutcome } from './guardrailScript.js';

/**
 * The scenario API both SDK adapters implement. Each factory builds its agent, tools and model once;
 * the returned function performs one run and checks its outcome, so a scenario never measures a
 * run that silently did something else.
 */
export interface BenchAdapter {
  readonly sdk: SdkName;
  /** One run: `toolTurns` turns with one tool call each, then a final message. Resolves when done. */
  toolLoop(toolTurns: number, streamed: boolean): () => Promise<void>;
  /** One streamed run whose single response is `deltas` text deltas; resolves with the deltas received. */
  textStream(deltas: number): () => Promise<number>;
  /** One run that pauses on a tool needing approval; resolves with the result, to be kept alive. */
  pausedRun(): () => Promise<unknown>;
  /**
   * One plain run of an agent with a timed model and one input guardrail, as `plan` says
   * (`guardrailScript.ts`); resolves (also when the run rejects with the tripwire) once the model
   * request and the guardrail have ended, with what happened when.
   */
  guardrailRun(plan: GuardrailPlan): () => Promise<GuardrailRunOutcome>;
}

/** The run options both SDKs get: the overhead runs need more than the default ten turns. */
export const MAX_TURNS = 50;

export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`bench sanity check failed: ${message}`);
}
