import * as Effect from 'effect/Effect';
import type { AgentInputItem, Tool, ToolCallRawItem } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { toSmartString } from '../../../state/internal/items.js';
import type { LoopEnv } from './loopEnv.js';
import { withSpanContext } from './span.js';

/**
 * The lifecycle events, in the reference's order: for `agent_start` the agent hears first, for the
 * others the runner does. Emitters never throw (a failing listener is logged), so these never fail.
 * Listeners run inside the span the reference has current then (the turn's, the tool's, the
 * agent's for `agent_end`), so spans they make nest the same way.
 */
function emitting(env: LoopEnv, thunk: () => void, which: 'current' | 'agent' = 'current'): Effect.Effect<void> {
  return withSpanContext(env, (enter) => Effect.sync(() => enter(thunk, which)));
}

export function agentStarted(agent: Agent<any, any>, turnInput: AgentInputItem[], record: RunRecord, env: LoopEnv): Effect.Effect<void> {
  return emitting(env, () => {
    agent.emit('agent_start', record.context, agent, turnInput);
    env.hooks.emit('agent_start', record.context, agent, turnInput);
  });
}

export function agentEnded(agent: Agent<any, any>, output: unknown, record: RunRecord, env: LoopEnv): Effect.Effect<void> {
  return emitting(env, () => {
    const text = toSmartString(output);
    env.hooks.emit('agent_end', record.context, agent, text);
    agent.emit('agent_end', record.context, text);
  }, 'agent');
}

export function agentHandedOff(from: Agent<any, any>, to: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<void> {
  return emitting(env, () => {
    env.hooks.emit('agent_handoff', record.context, from, to);
    from.emit('agent_handoff', record.context, to);
  });
}

export function toolStarted(agent: Agent<any, any>, tool: Tool<any>, toolCall: ToolCallRawItem, record: RunRecord, env: LoopEnv): Effect.Effect<void> {
  return emitting(env, () => {
    env.hooks.emit('agent_tool_start', record.context, agent, tool, { toolCall });
    agent.emit('agent_tool_start', record.context, tool, { toolCall });
  });
}

export function toolEnded(agent: Agent<any, any>, tool: Tool<any>, output: unknown, toolCall: ToolCallRawItem, record: RunRecord, env: LoopEnv): Effect.Effect<void> {
  return emitting(env, () => {
    const result = toSmartString(output);
    env.hooks.emit('agent_tool_end', record.context, agent, tool, result, { toolCall });
    agent.emit('agent_tool_end', record.context, tool, result, { toolCall });
  });
}
