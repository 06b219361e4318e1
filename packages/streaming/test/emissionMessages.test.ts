// README, "Streaming tools": a generator that yields something that is not an event fails the run
// with a `ToolCallError` wrapping a `StreamingToolEmissionError` "that names the tool and says what
// was yielded". These cases pin "says what was yielded" where a vague message would also pass the
// simple cases: the keys of an object without a type, a long string (shown, cut at 40 characters),
// a tag that is an array, undefined, and an event of a run whose field has the wrong kind (null or a string where
// the event carries an object).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, ToolCallError, run } from '@baton/core';
import { StreamingToolEmissionError, streamingTool } from '../src/index.js';

async function messageFor(value: unknown): Promise<string> {
  const sloppy = streamingTool({
    name: 'sloppy_tool',
    description: '',
    parameters: z.object({}),
    async *execute() {
      yield value as never;
      return 'unreachable';
    },
  });
  const model = new ScriptedModel([[functionCall('sloppy_tool', {}, { callId: 's1' })], [assistantMessage('never')]]);
  const error = await run(new Agent({ name: 'S', model, tools: [sloppy] }), 'go').then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ToolCallError);
  const cause = (error as ToolCallError).error;
  expect(cause).toBeInstanceOf(StreamingToolEmissionError);
  return (cause as Error).message;
}

const forty = 'a'.repeat(40);

describe('a bad yield is described', () => {
  it.each([
    ['an object without a type, by its keys', { progress: 1, total: 2 }, /without a string `type` \(keys: progress, total\)/],
    ['an object with many keys, by its first five', { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }, /\(keys: a, b, c, d, e\)/],
    ['an empty object, as having no keys', {}, /\(keys: none\)/],
    ['undefined', undefined, /\(got undefined\)/],
    ['a notification whose tag is an array', { type: 'notify', data: 1, tag: ['x'] }, /`tag` is an array/],
    ['a string of 40 characters, whole', forty, new RegExp(`got the string "${forty}"`)],
    ['a longer string, cut at 40 characters', `${forty}SECRET-TAIL`, new RegExp(`got the string "${forty}…"`)],
    ['a notification whose tag is an object', { type: 'notify', data: 1, tag: { label: 'x' } }, /`tag` is an object/],
    ['an item event whose item is null', { type: 'run_item_stream_event', name: 'tool_called', item: null }, /"run_item_stream_event" whose `item` is null/],
    ['an item event whose item is a string', { type: 'run_item_stream_event', name: 'tool_called', item: 'x' }, /whose `item` is the string "x"/],
    ['an item event whose name is not a string', { type: 'run_item_stream_event', name: 5, item: {} }, /whose `name` is number 5/],
    ['a raw model event whose data is a string', { type: 'raw_model_stream_event', data: 'delta' }, /"raw_model_stream_event" whose `data` is the string "delta"/],
  ])('%s', async (_what, value, expected) => {
    const message = await messageFor(value);
    expect(message).toContain('Streaming tool "sloppy_tool"');
    expect(message).toMatch(expected);
    expect(message).not.toContain('SECRET-TAIL');
  });
});
