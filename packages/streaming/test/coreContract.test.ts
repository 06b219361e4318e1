import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, UserError, run, tool, type FunctionTool } from '@baton/core';
import { collect } from './helpers.js';

/**
 * The core contract @baton/streaming builds on, for tools that call `details.emit` themselves
 * (not through streamingTool(), which checks every yield in both kinds of run).
 */
function emitter(value: unknown, seen: { error?: unknown }): FunctionTool {
  const t = tool({
    name: 'raw_emitter',
    description: '',
    parameters: z.object({}),
    errorFunction: null,
    execute: async (_input, _ctx, details) => {
      seen.error = await details.emit(value as never).then(() => undefined, (e: unknown) => e);
      return 'emitted';
    },
  });
  t.streaming = true;
  return t;
}

describe('core: details.emit of a bad emission', () => {
  it('in a streamed run, rejects with a UserError naming the tool', async () => {
    const seen: { error?: unknown } = {};
    const model = new ScriptedModel([[functionCall('raw_emitter', {}, { callId: 'r1' })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'R', model, tools: [emitter('junk', seen)] }), 'go', { stream: true });
    await collect(result);
    await result.completed;
    expect(seen.error).toBeInstanceOf(UserError);
    expect((seen.error as Error).message).toContain('Tool "raw_emitter" emitted something that is not a stream event');
  });

  // Emissions are checked in non-streamed runs too, so a broken tool fails the same way everywhere.
  it('in a non-streamed run, rejects the same way', async () => {
    const seen: { error?: unknown } = {};
    const model = new ScriptedModel([[functionCall('raw_emitter', {}, { callId: 'r1' })], [assistantMessage('ok')]]);
    await run(new Agent({ name: 'R', model, tools: [emitter('junk', seen)] }), 'go');
    expect(seen.error).toBeInstanceOf(UserError);
  });
});
