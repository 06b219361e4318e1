// An error handler's final output (errorHandlers.maxTurns, modelRefusal, invalidFinalOutput) is the
// agent's answer, so the output guardrails check it as they check a model's, as on the reference: a
// trip rejects the run with OutputGuardrailTripwireTriggered and the answer reaches neither the
// session nor the result. A max-turns answer joins the history (and the stream) only once the
// guardrails passed; the guardrails see it with no model response behind it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, functionCall } from '@baton/testing';
import {
  Agent,
  GuardrailExecutionError,
  MemorySession,
  OutputGuardrailTripwireTriggered,
  run,
  tool,
  type AssistantMessageItem,
  type OutputGuardrail,
  type OutputGuardrailFunctionArgs,
} from '../src/index.js';

const refusalOnly: AssistantMessageItem = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] };

function looping(outputGuardrails: OutputGuardrail[], outputType?: z.ZodType) {
  const lookup = tool({ name: 'lookup', description: '', parameters: z.object({}), execute: async () => 'looked up' });
  return new Agent({
    name: 'Looper',
    model: new ScriptedModel([[functionCall('lookup', {}, { callId: 'c1' })]]),
    tools: [lookup],
    outputGuardrails,
    ...(outputType ? { outputType: outputType as never } : {}),
  });
}

const shapes = (items: readonly unknown[]) => items.map((item) => {
  const it = item as { type: string; role?: string };
  return it.type === 'message' ? `message:${it.role}` : it.type;
});

async function settle(agent: Agent<any, any>, stream: boolean, options: Record<string, unknown>) {
  const events: string[] = [];
  try {
    if (!stream) return { result: await run(agent, 'go', options as never), events };
    const streamed = await run(agent, 'go', { ...options, stream: true } as never);
    for await (const event of streamed) if (event.type === 'run_item_stream_event') events.push(event.item.type);
    await streamed.completed;
    return { result: streamed, events };
  } catch (error) {
    return { error: error as any, events };
  }
}

describe.each([false, true])('an error handler’s final output and the output guardrails (stream=%s)', (stream) => {
  it('a max-turns answer that trips a guardrail rejects the run; the session keeps the turn, not the answer', async () => {
    const session = new MemorySession();
    const outcome = await settle(looping([{ name: 'block', execute: async () => ({ tripwireTriggered: true, outputInfo: null }) }]), stream, {
      session,
      maxTurns: 1,
      errorHandlers: { maxTurns: () => ({ finalOutput: 'fallback' }) },
    });
    expect(outcome.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(outcome.error.result.agentOutput).toBe('fallback');
    expect(shapes(await session.getItems())).toEqual(['message:user', 'function_call', 'function_call_result']);
    // Never published: the answer was not accepted.
    expect(outcome.events).not.toContain('message_output_item');
    expect(outcome.error.state.generatedItems.map((item: { type: string }) => item.type)).not.toContain('message_output_item');
  });

  it('a max-turns answer that passes is checked with no model response, then joins the history', async () => {
    const seen: Array<OutputGuardrailFunctionArgs<any, unknown>> = [];
    const outcome = await settle(looping([{ name: 'look', execute: async (args) => (seen.push(args), { tripwireTriggered: false }) }]), stream, {
      maxTurns: 1,
      errorHandlers: { maxTurns: () => ({ finalOutput: 'fallback' }) },
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result!.finalOutput).toBe('fallback');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.agentOutput).toBe('fallback');
    expect(seen[0]!.details).toBeDefined();
    expect('modelResponse' in seen[0]!.details!).toBe(false);
    // The run's items so far, as input items: the turn that ran out (its call and output).
    expect(shapes(seen[0]!.details!.output ?? [])).toEqual(['function_call', 'function_call_result']);
    expect(outcome.result!.outputGuardrailResults.map((result) => result.agentOutput)).toEqual(['fallback']);
    expect(shapes(outcome.result!.newItems.map((item) => item.rawItem)).at(-1)).toBe('message:assistant');
    if (stream) expect(outcome.events.at(-1)).toBe('message_output_item');
  });

  it('a structured max-turns answer reaches the guardrails parsed', async () => {
    const seen: unknown[] = [];
    const outcome = await settle(looping([{ name: 'look', execute: async ({ agentOutput }) => (seen.push(agentOutput), { tripwireTriggered: false }) }], z.object({ summary: z.string() })), stream, {
      maxTurns: 1,
      errorHandlers: { maxTurns: () => ({ finalOutput: { summary: 'fallback' } }) },
    });
    expect(outcome.result!.finalOutput).toEqual({ summary: 'fallback' });
    expect(seen).toEqual([{ summary: 'fallback' }]);
  });

  it('a guardrail that throws on a max-turns answer fails the run with GuardrailExecutionError', async () => {
    const outcome = await settle(
      looping([
        {
          name: 'crashes',
          execute: async () => {
            throw new Error('checker crashed');
          },
        },
      ]),
      stream,
      { maxTurns: 1, errorHandlers: { maxTurns: () => ({ finalOutput: 'fallback' }) } },
    );
    expect(outcome.error).toBeInstanceOf(GuardrailExecutionError);
    expect(outcome.error.message).toBe('Output guardrail "crashes" failed to complete: checker crashed');
  });

  it('a modelRefusal answer that trips a guardrail rejects the run, and the session keeps only the input', async () => {
    const session = new MemorySession();
    const agent = new Agent({ name: 'Refuser', model: new ScriptedModel([[refusalOnly]]), outputGuardrails: [{ name: 'block', execute: async () => ({ tripwireTriggered: true, outputInfo: 'no' }) }] });
    const outcome = await settle(agent, stream, { session, errorHandlers: { modelRefusal: () => ({ finalOutput: 'refused politely' }) } });
    expect(outcome.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(outcome.error.result.agentOutput).toBe('refused politely');
    expect(shapes(await session.getItems())).toEqual(['message:user']);
  });
});
