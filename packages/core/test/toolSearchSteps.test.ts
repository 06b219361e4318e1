import { Effect } from 'effect';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  Runner,
  UserError,
  attachClientToolSearchExecutor,
  tool,
  type HostedTool,
  type JsonValue,
  type Model,
  type StepRunner,
  type ToolSearchCallItem,
} from '../src/index.js';

// A client tool search's executor is a step: a durable run replays its answer from the journal
// (the loaded tools by name, found again among the agent's tools), never asking the executor again.

function recording(): { runner: StepRunner; tape: Map<string, JsonValue> } {
  const tape = new Map<string, JsonValue>();
  const runner: StepRunner = {
    runStep: (step, effect) => effect.pipe(Effect.tap((value) => Effect.sync(() => tape.set(step.key, JSON.parse(JSON.stringify(step.codec.encode(value))))))),
  };
  return { runner, tape };
}

function replaying(tape: Map<string, JsonValue>): StepRunner {
  return {
    runStep: (step) =>
      Effect.suspend(() => (tape.has(step.key) ? Effect.succeed(step.codec.decode(tape.get(step.key)!)) : Effect.die(new Error(`no recorded result for ${step.key}`)))),
  };
}

const failingModel = {
  getResponse: () => Promise.reject(new Error('the model was called during replay')),
  getStreamedResponse: () => {
    throw new Error('the model was called during replay');
  },
} as unknown as Model;

const searchCall: ToolSearchCallItem = {
  type: 'tool_search_call',
  id: 'ts_1',
  status: 'completed',
  arguments: { topic: 'billing' },
  providerData: { call_id: 'search_1', execution: 'client' },
};

function customSearch(execute: Parameters<typeof attachClientToolSearchExecutor>[1]): HostedTool {
  return attachClientToolSearchExecutor(
    {
      type: 'hosted_tool',
      name: 'tool_search',
      providerData: { type: 'tool_search', execution: 'client', parameters: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] } },
    },
    execute,
  );
}

const invoice = () => tool({ name: 'invoice', description: 'Reads an invoice', parameters: z.object({}), deferLoading: true, execute: () => 'invoice 7' });

describe('client tool search as a durable step', () => {
  it('journals the loaded tools by name and replays the answer without asking the executor again', async () => {
    const deferred = invoice();
    const execute = vi.fn(async ({ availableTools }: { availableTools: unknown[] }) => availableTools.filter((t) => t === deferred) as never);
    const agent = new Agent({
      name: 'Billing',
      model: new ScriptedModel([[searchCall], [functionCall('invoice', {}, { callId: 'c1' })], [assistantMessage('invoice 7 it is')]]),
      tools: [customSearch(execute), deferred],
    });
    const { runner, tape } = recording();
    const first = await new Runner({ stepRunner: runner }).run(agent, 'find the invoice');
    expect(first.finalOutput).toBe('invoice 7 it is');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(tape.get('toolsearch:search_1')).toMatchObject({ tools: [JSON.stringify(['deferred_top_level', 'invoice'])], output: { type: 'tool_search_output' } });

    const replayed = await new Runner({ stepRunner: replaying(tape) }).run(agent.clone({ model: failingModel }), 'find the invoice');
    expect(execute).toHaveBeenCalledTimes(1); // the journal answered
    expect(replayed.finalOutput).toBe('invoice 7 it is');
    expect(replayed.newItems.map((item) => item.type)).toEqual(first.newItems.map((item) => item.type));
  });

  it('fails the replay with a UserError naming a recorded tool the agent no longer has', async () => {
    const deferred = invoice();
    const execute = vi.fn(async () => deferred);
    const agent = new Agent({
      name: 'Billing',
      model: new ScriptedModel([[searchCall], [assistantMessage('nothing to call')]]),
      tools: [customSearch(execute), deferred],
    });
    const { runner, tape } = recording();
    await new Runner({ stepRunner: runner }).run(agent, 'find the invoice');

    const without = agent.clone({ model: failingModel, tools: [customSearch(execute)] });
    const error = await new Runner({ stepRunner: replaying(tape) }).run(without, 'find the invoice').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('"invoice"');
    expect((error as Error).message).toContain('search_1');
    expect(execute).toHaveBeenCalledTimes(1);
  });
});
