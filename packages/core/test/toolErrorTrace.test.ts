import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { RunToolCallOutputItem } from '@baton/types';
import { Agent, run, setSensitiveDataLoggingEnabled, tool } from '../src/index.js';

const secret = new Error('db password is hunter2');
const flaky = (errorFunction?: (context: unknown, error: unknown) => string) =>
  tool({
    name: 'lookup',
    description: '',
    parameters: z.object({}),
    ...(errorFunction ? { errorFunction } : {}),
    execute: () => {
      throw secret;
    },
  });

function agentWith(lookup: ReturnType<typeof flaky>) {
  const model = new ScriptedModel([[functionCall('lookup', {}, { callId: 'c1' })], [assistantMessage('sorry')]]);
  return { agent: new Agent({ name: 'A', model, tools: [lookup] }), model };
}

afterEach(() => vi.restoreAllMocks());

describe('a tool error answered with the default text', () => {
  it('keeps the error on the output item, not in what the model or the JSON sees', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { agent, model } = agentWith(flaky());
    const result = await run(agent, 'go');
    const output = result.newItems.find((item): item is RunToolCallOutputItem => item.type === 'tool_call_output_item')!;
    expect(output.error).toBe(secret);
    expect(JSON.stringify(output)).not.toContain('hunter2');
    expect(JSON.stringify(model.calls[1]!.request.input)).not.toContain('hunter2');
    expect(JSON.stringify(result.state)).not.toContain('hunter2');
  });

  it('writes one warning naming the tool and the call, without the message while tool data stays out of logs', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await run(agentWith(flaky()).agent, 'go');
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]![0]);
    expect(line).toContain('"lookup" (call c1) threw Error');
    expect(line).not.toContain('hunter2');

    warn.mockClear();
    setSensitiveDataLoggingEnabled(true);
    try {
      await run(agentWith(flaky()).agent, 'go');
    } finally {
      setSensitiveDataLoggingEnabled(false);
    }
    expect(String(warn.mock.calls[0]![0])).toContain('Error: db password is hunter2');
  });

  it('stays quiet when the tool’s own error function answered (its author chose what to do), but keeps the error', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const result = await run(agentWith(flaky(() => 'lookup is down')).agent, 'go');
    expect(warn).not.toHaveBeenCalled();
    const output = result.newItems.find((item): item is RunToolCallOutputItem => item.type === 'tool_call_output_item')!;
    expect(output.output).toBe('lookup is down');
    expect(output.error).toBe(secret);
  });
});
