import type { Agent } from '../definitions/agent.js';
import type { RunConfig, RunOptions } from '../definitions/runConfig.js';
import type { RunState } from '../state/runState.js';
import type { RunResult } from './runResult.js';

// Tells @baton/types that agents in run items, events and guardrail arguments are core's `Agent`,
// and that `error.state` is core's `RunState`. Core's lower layers name types of the layers above
// them the same way, so no module imports one above it: `agent.asTool()`'s options
// (definitions/agentTool.ts) take a `RunConfig` and `RunOptions`, and hand a `RunResult` to
// `customOutputExtractor`.
declare module '@baton/types' {
  interface BatonTypeRegistry {
    agent: Agent<any, any>;
    runState: RunState<any, any>;
    runConfig: RunConfig;
    runOptions: RunOptions<any>;
    runResult: RunResult<any, any>;
  }
}
