import type { Agent } from '../definitions/agent.js';
import type { RunState } from './runState.js';

// Tells @baton/types that agents in run items, events and guardrail arguments are core's `Agent`,
// and that `error.state` is core's `RunState`.
declare module '@baton/types' {
  interface BatonTypeRegistry {
    agent: Agent<any, any>;
    runState: RunState<any, any>;
  }
}
