import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, ToolCallError, run, tool } from '../src/index.js';

// A tool without an errorFunction fails the run with whatever it threw wrapped in a new
// ToolCallError ("Failed to run function tools: …"), its own ToolCallError included (as the reference).

describe('a ToolCallError thrown by a tool with errorFunction: null', () => {
  it('fails the run with a new ToolCallError whose error is the thrown one', async () => {
    const thrown = new ToolCallError('backend unavailable', new Error('backend down'));
    const lookup = tool({
      name: 'lookup',
      description: 'lookup',
      parameters: z.object({}),
      errorFunction: null,
      execute: async () => {
        throw thrown;
      },
    });
    const model = new ScriptedModel([[functionCall('lookup', {}, { callId: 'c1' })], [assistantMessage('answer')]]);
    const error = await run(new Agent({ name: 'A', model, tools: [lookup] }), 'go').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error).not.toBe(thrown);
    expect((error as ToolCallError).error).toBe(thrown);
    expect((error as ToolCallError).message).toBe('Failed to run function tools: ToolCallError: backend unavailable');
    expect(model.calls).toHaveLength(1);
  });
});
