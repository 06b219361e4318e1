import type { AgentInputItem, RegisteredAgent, Tool, ToolCallRawItem } from '@baton/types';
import type { RunContext } from './runContext.js';

// Agents are typed through the registry (core's `Agent`), since `Agent` itself extends `AgentHooks`.
type AnyAgent = RegisteredAgent;
import { RuntimeEventEmitter, type EventEmitterEvents } from './runtimeEventEmitter.js';

/** Something that emits typed events: `on`, `off`, `once`, `emit`. */
export abstract class EventEmitterDelegate<EventTypes extends EventEmitterEvents = Record<string, any[]>> {
  protected abstract eventEmitter: RuntimeEventEmitter<EventTypes>;

  on<K extends keyof EventTypes>(type: K, listener: (...args: EventTypes[K]) => void): RuntimeEventEmitter<EventTypes> {
    return this.eventEmitter.on(type, listener);
  }
  off<K extends keyof EventTypes>(type: K, listener: (...args: EventTypes[K]) => void): RuntimeEventEmitter<EventTypes> {
    return this.eventEmitter.off(type, listener);
  }
  once<K extends keyof EventTypes>(type: K, listener: (...args: EventTypes[K]) => void): RuntimeEventEmitter<EventTypes> {
    return this.eventEmitter.once(type, listener);
  }
  emit<K extends keyof EventTypes>(type: K, ...args: EventTypes[K]): boolean {
    return this.eventEmitter.emit(type, ...args);
  }
}

/** The call a tool event is about: a function call, or a local tool's (shell, apply-patch, computer) call. */
type ToolCallDetailsArg = { toolCall: ToolCallRawItem };

/** What an agent emits about itself while it runs (`agent.on('agent_start', ...)`). */
export type AgentHookEvents<TContext = unknown, TOutput = 'text'> = {
  /** The agent is about to call its model for the first time in a row of turns; `turnInput` is what it will see. */
  agent_start: [context: RunContext<TContext>, agent: AnyAgent, turnInput?: AgentInputItem[]];
  /** The agent produced the run's final output (after its output guardrails passed). */
  agent_end: [context: RunContext<TContext>, output: string];
  agent_handoff: [context: RunContext<TContext>, nextAgent: AnyAgent];
  agent_tool_start: [context: RunContext<TContext>, tool: Tool<any>, details: ToolCallDetailsArg];
  agent_tool_end: [context: RunContext<TContext>, tool: Tool<any>, result: string, details: ToolCallDetailsArg];
};

/** What a runner emits about every agent of its runs (`runner.on('agent_start', ...)`). */
export type RunHookEvents<TContext = unknown, TOutput = 'text'> = {
  agent_start: [context: RunContext<TContext>, agent: AnyAgent, turnInput?: AgentInputItem[]];
  agent_end: [context: RunContext<TContext>, agent: AnyAgent, output: string];
  agent_handoff: [context: RunContext<TContext>, fromAgent: AnyAgent, toAgent: AnyAgent];
  agent_tool_start: [context: RunContext<TContext>, agent: AnyAgent, tool: Tool<any>, details: ToolCallDetailsArg];
  agent_tool_end: [context: RunContext<TContext>, agent: AnyAgent, tool: Tool<any>, result: string, details: ToolCallDetailsArg];
};

/** The lifecycle events of one agent; every `Agent` is one. */
export class AgentHooks<TContext = unknown, TOutput = 'text'> extends EventEmitterDelegate<AgentHookEvents<TContext, TOutput>> {
  protected eventEmitter = new RuntimeEventEmitter<AgentHookEvents<TContext, TOutput>>();
}

/** The lifecycle events of a runner's runs; every `Runner` is one. */
export class RunHooks<TContext = unknown, TOutput = 'text'> extends EventEmitterDelegate<RunHookEvents<TContext, TOutput>> {
  protected eventEmitter = new RuntimeEventEmitter<RunHookEvents<TContext, TOutput>>();
}
