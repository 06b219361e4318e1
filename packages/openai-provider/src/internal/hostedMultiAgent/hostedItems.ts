import { Usage, UserError, type ModelRequest } from '@baton/types';
import type { HostedMultiAgentConfig } from '../../experimental/hostedMultiAgent/config.js';
import { isRecord, type Json } from '../json.js';
import { responsesUsage } from '../usage.js';

/** The agent path the service gives the coordinating agent. */
export const ROOT_AGENT = '/root';

/** The `OpenAI-Beta` value that opts a Responses WebSocket into hosted multi-agent orchestration. */
export const MULTI_AGENT_BETA = 'responses_multi_agent=v1';

/** Items the service uses between its own agents: shown as raw events, never given to the run loop. */
const COLLABORATION_ITEMS = new Set(['agent_message', 'multi_agent_call', 'multi_agent_call_output']);

/** Event types that end a hosted response. */
export const TERMINAL_EVENTS = new Set(['response.completed', 'response.failed', 'response.incomplete', 'response.error']);

export function isTerminalEvent(type: unknown): boolean {
  return typeof type === 'string' && TERMINAL_EVENTS.has(type);
}

/** The coordinating agent's final answer: the one message the run loop sees. */
export function isRootFinalMessage(item: unknown): boolean {
  return isRecord(item) && item.type === 'message' && item.phase === 'final_answer' && isRecord(item.agent) && item.agent.agent_name === ROOT_AGENT;
}

/**
 * The output items the run loop is given: no collaboration items, and of the messages only the
 * root agent's final answer (subagents' messages and the root's commentary stay raw events).
 */
export function runLoopOutput(items: readonly unknown[]): Json[] {
  return items.filter(isRecord).filter((item) => {
    if (typeof item.type === 'string' && COLLABORATION_ITEMS.has(item.type)) return false;
    return item.type !== 'message' || isRootFinalMessage(item);
  });
}

/** The usage of the Responses requests one hosted turn took (a continuation is a second request). */
export function hostedUsage(rawUsages: readonly unknown[]): Usage {
  const usage = new Usage();
  for (const raw of rawUsages) usage.add(responsesUsage(raw));
  return usage;
}

/**
 * The body fields the hosted mode adds (`multi_agent`), after refusing what it cannot run: SDK
 * handoffs (the service coordinates its own agents), a reasoning summary and `max_tool_calls`.
 */
export function multiAgentFields(request: ModelRequest, requestData: Json, config: HostedMultiAgentConfig): Json {
  if (request.handoffs.length > 0) {
    throw new UserError('OpenAIHostedMultiAgentModel cannot run SDK handoffs: the service coordinates the hosted agents. Remove the agent\'s handoffs, or use OpenAIResponsesModel.');
  }
  if (isRecord(requestData.reasoning) && requestData.reasoning.summary != null) {
    throw new UserError('OpenAIHostedMultiAgentModel does not take reasoning.summary: remove the reasoning summary setting.');
  }
  if (requestData.max_tool_calls != null) {
    throw new UserError('OpenAIHostedMultiAgentModel does not take max_tool_calls: remove it from the provider settings.');
  }
  const limit = config.maxConcurrentSubagents;
  return { multi_agent: limit === undefined ? { enabled: true } : { enabled: true, max_concurrent_subagents: limit } };
}

/** The `response.create` frame for a request body: the body without `stream` and `betas` (the socket always streams). */
export function responseCreateFrame(requestData: Json): Json {
  const { stream: _stream, betas: _betas, ...body } = requestData;
  return { ...body, type: 'response.create' };
}
