import { describe, expectTypeOf, it } from 'vitest';
import {
  Agent,
  RunContext,
  type AgentAsToolOptions,
  type AgentTool,
  type AgentToolStreamEvent,
  type AgentToolInvocation,
  type ModelInputData,
  type RunConfig,
  type RunOptions,
  type RunResult,
} from '../src/index.js';

// `agent.asTool()`'s options are declared below the engine (definitions/agentTool.ts) and name the
// run types through @baton/types' registry. Pinned here: users see exactly the types they name.

describe('agent.asTool() options', () => {
  it('name the run types themselves', () => {
    expectTypeOf<NonNullable<AgentAsToolOptions['runConfig']>>().toEqualTypeOf<RunConfig>();
    expectTypeOf<NonNullable<AgentAsToolOptions['runOptions']>>().toEqualTypeOf<Omit<RunOptions<any>, 'stream'>>();
    expectTypeOf<NonNullable<AgentAsToolOptions['customOutputExtractor']>>().parameter(0).toEqualTypeOf<RunResult<any, any> & { readonly agentToolInvocation: AgentToolInvocation }>();
    expectTypeOf<AgentToolStreamEvent['agent']>().toEqualTypeOf<Agent<any, any>>();
    expectTypeOf(new Agent({ name: 'a' }).asTool()).toEqualTypeOf<AgentTool<unknown>>();
    expectTypeOf(new Agent<{ userId: string }>({ name: 'a' }).asTool).parameter(0).toEqualTypeOf<AgentAsToolOptions<{ userId: string }> | undefined>();
  });

  it('type the callbacks of an options literal from context', () => {
    const agent = new Agent({ name: 'inner' });
    agent.asTool({
      customOutputExtractor: (result) => {
        expectTypeOf(result).toEqualTypeOf<RunResult<any, any> & { readonly agentToolInvocation: AgentToolInvocation }>();
        // The call the nested run answered is always there (a direct invoke may give no call id).
        expectTypeOf(result.agentToolInvocation.toolName).toEqualTypeOf<string>();
        return result.lastAgent.name;
      },
      onStream: ({ agent: inner, event }) => {
        expectTypeOf(inner).toEqualTypeOf<Agent<any, any>>();
        void event.type;
      },
      runConfig: {
        callModelInputFilter: ({ modelData, agent: current }) => {
          expectTypeOf(modelData).toEqualTypeOf<ModelInputData>();
          expectTypeOf(current).toEqualTypeOf<Agent<any, any>>();
          return modelData;
        },
        outputGuardrailBlockedMessage: ({ agent: current, runContext }) => {
          expectTypeOf(runContext).toEqualTypeOf<RunContext<any>>();
          return `${current.name} withheld it`;
        },
      },
      runOptions: {
        maxTurns: 3,
        errorHandlers: { maxTurns: ({ runData }) => ({ finalOutput: runData.lastAgent?.name }) },
      },
    });
  });

  it('accept callbacks annotated with the public types', () => {
    const extractor = (result: RunResult) => String(result.finalOutput);
    const config: RunConfig = { maxTurns: 2 };
    new Agent({ name: 'inner' }).asTool({ customOutputExtractor: extractor, runConfig: config });
    // @ts-expect-error: runConfig is a RunConfig, not anything.
    new Agent({ name: 'inner' }).asTool({ runConfig: { maxTurns: 'many' } });
  });
});
