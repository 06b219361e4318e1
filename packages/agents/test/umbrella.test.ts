import { describe, expect, it } from 'vitest';
import * as agents from '../src/index.js';
import * as testing from '../src/testing.js';
import { z } from 'zod';

// The names a program written for @openai/agents imports for the features in scope.
const referenceNames = [
  'Agent',
  'run',
  'Runner',
  'tool',
  'RunState',
  'RunContext',
  'RunResult',
  'StreamedRunResult',
  'MemorySession',
  'Handoff',
  'Usage',
  'setDefaultModelProvider',
  'RunMessageOutputItem',
  'RunToolCallItem',
  'RunToolCallOutputItem',
  'RunToolApprovalItem',
  'RunHandoffCallItem',
  'RunHandoffOutputItem',
  'RunReasoningItem',
  'RunRawModelStreamEvent',
  'RunItemStreamEvent',
  'RunAgentUpdatedStreamEvent',
  'AgentsError',
  'MaxTurnsExceededError',
  'ModelBehaviorError',
  'UserError',
  'ToolCallError',
  'GuardrailExecutionError',
  'InputGuardrailTripwireTriggered',
  'OutputGuardrailTripwireTriggered',
  'ToolInputGuardrailTripwireTriggered',
  'ToolOutputGuardrailTripwireTriggered',
  'defineInputGuardrail',
  'defineOutputGuardrail',
  'defineToolInputGuardrail',
  'defineToolOutputGuardrail',
  'ToolGuardrailFunctionOutputFactory',
  'handoff',
  'getHandoff',
  'removeAllTools',
  'RECOMMENDED_PROMPT_PREFIX',
  'promptWithHandoffInstructions',
] as const;

describe('@baton/agents', () => {
  it.each(referenceNames)('exports %s', (name) => {
    expect(agents[name as keyof typeof agents]).toBeDefined();
  });

  it('runs the README example end to end', async () => {
    const add = agents.tool({
      name: 'add',
      description: 'Add two numbers',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    });
    const model = new testing.ScriptedModel([[testing.functionCall('add', { a: 2, b: 3 })], [testing.assistantMessage('2 + 3 = 5')]]);
    const agent = new agents.Agent({ name: 'Calculator', model, tools: [add] });
    const result = await agents.run(agent, 'What is 2 + 3?');
    expect(result.finalOutput).toBe('2 + 3 = 5');
    const toolOutput = result.newItems.find((item) => item.type === 'tool_call_output_item');
    expect(toolOutput?.type === 'tool_call_output_item' && toolOutput.output).toBe(5);
  });
});

describe('the umbrella is all of Baton', () => {
  it('exports the streaming and paused-run packages too', async () => {
    const streaming = await import('@baton/streaming');
    const hitl = await import('@baton/hitl-state');
    for (const name of [...Object.keys(streaming), ...Object.keys(hitl)]) expect(agents, name).toHaveProperty(name);
    expect(agents.streamingTool).toBe(streaming.streamingTool);
    expect(agents.inspectRunState).toBe(hitl.inspectRunState);
  });

  it('ships @baton/testing as a dependency, so @baton/agents/testing works after `npm install @baton/agents zod`', async () => {
    const { readFileSync } = await import('node:fs');
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(manifest.dependencies).toHaveProperty('@baton/testing');
    expect(manifest.peerDependencies?.['@baton/testing']).toBeUndefined();
    // It stays light: the testing package itself depends on @baton/types (and type packages) only.
    const testing = JSON.parse(readFileSync(new URL('../../testing/package.json', import.meta.url), 'utf8'));
    expect(Object.keys(testing.dependencies).filter((name) => !name.startsWith('@types/'))).toEqual(['@baton/types']);
  });
});
