import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { FunctionTool, InputGuardrail, OutputGuardrail } from '@baton/types';
import { Agent, RunContext, run, tool, type RunResult, type StreamedRunResult } from '../src/index.js';

// The inference users rely on, pinned: a change that loosens or breaks it fails `vitest` (type
// tests) and `tsc`.

const Weather = z.object({ city: z.string(), celsius: z.number() });
type Weather = z.infer<typeof Weather>;

describe('tool parameters', () => {
  it('infers execute input from a zod schema', () => {
    tool({
      name: 'weather',
      description: 'weather',
      parameters: z.object({ city: z.string(), days: z.number().int().optional() }),
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ city: string; days?: number | undefined }>();
        return input.city;
      },
    });
  });

  it('types the context a tool receives and the tool it makes', () => {
    const t = tool({
      name: 'whoami',
      description: 'who',
      parameters: z.object({}),
      execute: (_input, runContext?: RunContext<{ userId: string }>) => runContext?.context.userId ?? '',
    });
    expectTypeOf(t).toEqualTypeOf<FunctionTool<{ userId: string }>>();
  });
});

describe('finalOutput', () => {
  const textAgent = new Agent({ name: 'text' });
  const weatherAgent = new Agent({ name: 'weather', outputType: Weather });

  it('is a string for a text agent, the schema output for a structured one', async () => {
    expectTypeOf((await run(textAgent, 'hi')).finalOutput).toEqualTypeOf<string | undefined>();
    expectTypeOf((await run(weatherAgent, 'hi')).finalOutput).toEqualTypeOf<Weather | undefined>();
  });

  it('is the same on a streamed result', async () => {
    const streamed = await run(weatherAgent, 'hi', { stream: true });
    expectTypeOf(streamed).toEqualTypeOf<StreamedRunResult<unknown, typeof weatherAgent>>();
    expectTypeOf(streamed.finalOutput).toEqualTypeOf<Weather | undefined>();
  });

  it("includes the handoff targets' output types (Agent.create)", async () => {
    const triage = Agent.create({ name: 'triage', handoffs: [textAgent, weatherAgent] });
    expectTypeOf((await run(triage, 'hi')).finalOutput).toEqualTypeOf<string | Weather | undefined>();
    expectTypeOf((await run(triage, 'hi', { stream: true })).finalOutput).toEqualTypeOf<string | Weather | undefined>();
  });

  it('a plain run result keeps the agent type', async () => {
    expectTypeOf(await run(weatherAgent, 'hi')).toEqualTypeOf<RunResult<unknown, typeof weatherAgent>>();
  });
});

describe('context types', () => {
  type Ctx = { userId: string };

  it('reach instructions, tools and guardrails of an agent typed with a context', () => {
    const forCtx = tool({
      name: 'who',
      description: 'who',
      parameters: z.object({}),
      execute: (_input, runContext?: RunContext<Ctx>) => runContext?.context.userId,
    });
    const guard: InputGuardrail<Ctx> = {
      name: 'g',
      execute: ({ context }) => {
        expectTypeOf(context.context).toEqualTypeOf<Ctx>();
        return { tripwireTriggered: false, outputInfo: null };
      },
    };
    const outputGuard: OutputGuardrail<unknown, Ctx> = { name: 'o', execute: () => ({ tripwireTriggered: false, outputInfo: null }) };
    new Agent<Ctx>({
      name: 'A',
      instructions: (runContext) => {
        expectTypeOf(runContext.context).toEqualTypeOf<Ctx>();
        return `hello ${runContext.context.userId}`;
      },
      tools: [forCtx],
      inputGuardrails: [guard],
      outputGuardrails: [outputGuard],
    });
  });

  it('refuses a guardrail written for another context', () => {
    const other: InputGuardrail<{ orgId: number }> = { name: 'g', execute: () => ({ tripwireTriggered: false, outputInfo: null }) };
    // @ts-expect-error: the guardrail reads `orgId`, which this agent's context does not have.
    new Agent<Ctx>({ name: 'A', inputGuardrails: [other] });
  });

  it('refuses a tool written for another context', () => {
    const other = tool({
      name: 'org',
      description: 'org',
      parameters: z.object({}),
      execute: (_input, runContext?: RunContext<{ orgId: number }>) => runContext?.context.orgId,
    });
    // @ts-expect-error: the tool reads `orgId`, which this agent's context does not have.
    new Agent<Ctx>({ name: 'A', tools: [other] });
  });

  it('a context-free tool or guardrail fits any agent', () => {
    const plain = tool({ name: 'plain', description: 'p', parameters: z.object({}), execute: () => 'ok' });
    const guard: InputGuardrail = { name: 'g', execute: () => ({ tripwireTriggered: false, outputInfo: null }) };
    new Agent<Ctx>({ name: 'A', tools: [plain], inputGuardrails: [guard] });
  });

  it('run options take the agent context', async () => {
    const agent = new Agent<Ctx>({ name: 'A' });
    const result = await run(agent, 'hi', { context: { userId: 'u1' } });
    expectTypeOf(result.state.context.context).toEqualTypeOf<Ctx>();
  });
});
