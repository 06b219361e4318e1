import type { FunctionTool, HandoffContract, Model } from '@baton/types';
import { Agent } from '../../../definitions/agent.js';
import { fixedlyEnabledTools } from '../../../definitions/internal/fixedAnswer.js';
import type { LoopEnv } from './loopEnv.js';

/** What a turn asks the agent and the provider before its model call. */
export type TurnAnswers = readonly [systemInstructions: string | undefined, tools: FunctionTool<any>[], handoffs: HandoffContract<any>[], model: Model];

/**
 * The turn's answers when they are known without calling anything: instructions given as text, no
 * handoffs, every function tool enabled or disabled once and for all, a model given as an object,
 * and none of the agent's methods replaced (a subclass or a patched instance is asked as usual).
 * Most agents are like this on every turn, and asking them would cost a promise per answer and an
 * asynchronous step before each model call. `undefined` when anything must be asked.
 */
export function turnAnswersNow(agent: Agent<any, any>, env: LoopEnv): TurnAnswers | undefined {
  const chosen = env.model ?? agent.model;
  if (typeof chosen !== 'object' || chosen === null) return undefined;
  if (typeof agent.instructions === 'function' || agent.handoffs.length > 0) return undefined;
  const own = Agent.prototype;
  if (agent.getSystemPrompt !== own.getSystemPrompt || agent.getEnabledTools !== own.getEnabledTools || agent.getEnabledHandoffs !== own.getEnabledHandoffs) {
    return undefined;
  }
  const tools = fixedlyEnabledTools(agent.tools);
  if (tools === undefined) return undefined;
  return [agent.instructions === '' ? undefined : agent.instructions, tools, [], chosen];
}
