import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunContext, ToolTimeoutError, UserError, invokeFunctionTool, run, tool } from '../src/index.js';

const slow = (options: Record<string, unknown> = {}, seen: AbortSignal[] = []) =>
  tool({
    name: 'slow',
    description: 'slow',
    parameters: z.object({}),
    timeoutMs: 5,
    execute: async (_input, _context, details) => {
      seen.push(details.signal);
      await new Promise((resolve) => setTimeout(resolve, 40));
      return 'done';
    },
    ...options,
  });

describe('tool timeouts', () => {
  it('answer with the default text when a call outlasts timeoutMs, and abort the call’s signal', async () => {
    const seen: AbortSignal[] = [];
    await expect(slow({}, seen).invoke(new RunContext(), '{}')).resolves.toBe("Tool 'slow' timed out after 5ms.");
    expect(seen[0]!.aborted).toBe(true);
    expect(seen[0]!.reason).toBeInstanceOf(ToolTimeoutError);
  });

  it('use timeoutErrorFunction, or raise ToolTimeoutError with raise_exception', async () => {
    const answer = slow({ timeoutErrorFunction: (_c: unknown, error: ToolTimeoutError) => `late:${error.toolName}:${error.timeoutMs}` });
    await expect(invokeFunctionTool({ tool: answer, runContext: new RunContext(), input: '{}' })).resolves.toBe('late:slow:5');
    await expect(slow({ timeoutBehavior: 'raise_exception' }).invoke(new RunContext(), '{}')).rejects.toBeInstanceOf(ToolTimeoutError);
  });

  it('apply inside a run: the model receives the timeout text as the tool output', async () => {
    const model = new ScriptedModel([[functionCall('slow', {}, { callId: 'c1' })], [assistantMessage('ok')]]);
    const result = await run(new Agent({ name: 'A', model, tools: [slow()] }), 'go');
    const output = result.newItems.find((item) => item.type === 'tool_call_output_item') as { output?: unknown } | undefined;
    expect(output?.output).toBe("Tool 'slow' timed out after 5ms.");
  });

  it.each([
    [{ timeoutMs: 0 }, /timeoutMs must be greater than 0/],
    [{ timeoutMs: 2_147_483_648 }, /less than or equal to 2147483647/],
    [{ timeoutBehavior: 'later' }, /timeoutBehavior must be one of/],
    [{ timeoutErrorFunction: 'x' }, /timeoutErrorFunction must be a function/],
  ])('refuse invalid options %o', (options, message) => {
    expect(() => slow(options)).toThrow(UserError);
    expect(() => slow(options)).toThrow(message);
  });
});
