import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, InvalidToolOutputError, RunContext, ToolTimeoutError, UserError, run, setSensitiveDataLoggingEnabled, tool } from '../src/index.js';

describe('a tool with an output schema', () => {
  it('declares the schema and returns the checked (transformed) result', async () => {
    const t = tool({
      name: 'lookup',
      description: 'Look up',
      parameters: z.object({}),
      outputSchema: z.object({ value: z.string().trim(), count: z.number() }),
      execute: async () => ({ value: '  ok  ', count: 2 }),
    });
    expect((t as { outputSchema?: unknown }).outputSchema).toMatchObject({
      type: 'object',
      properties: { value: { type: 'string' }, count: { type: 'number' } },
      required: ['value', 'count'],
      additionalProperties: false,
    });
    await expect(t.invoke(new RunContext(), '{}')).resolves.toEqual({ value: 'ok', count: 2 });
  });

  it('fails a result that does not match with InvalidToolOutputError, keeping the data out while tool data is not logged', async () => {
    const t = tool({
      name: 'bad_lookup',
      description: 'Look up',
      parameters: z.object({}),
      outputSchema: z.object({ value: z.number() }),
      execute: async () => ({ value: 'SECRET' }) as never,
    });
    const error = await t.invoke(new RunContext(), '{}').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidToolOutputError);
    expect((error as Error).message).toBe("Invalid output for function tool 'bad_lookup'.");
    expect((error as InvalidToolOutputError).toolOutput).toBeUndefined();
    expect(JSON.stringify(error)).not.toContain('SECRET');
  });

  it('has no default error function, checks an error function’s answer, and rebuilds an edited rethrown error', async () => {
    const base = { description: 'd', parameters: z.object({}), outputSchema: z.object({ value: z.string() }) };
    const throwing = tool({ ...base, name: 'throws', execute: async () => { throw new Error('boom'); } });
    await expect(throwing.invoke(new RunContext(), '{}')).rejects.toThrow('boom');
    const fallback = tool({ ...base, name: 'falls_back', execute: async () => { throw new Error('boom'); }, errorFunction: () => ({ value: 'fallback' }) as never });
    await expect(fallback.invoke(new RunContext(), '{}')).resolves.toEqual({ value: 'fallback' });
    const badFallback = tool({ ...base, name: 'bad_fallback', execute: async () => { throw new Error('boom'); }, errorFunction: () => ({ value: 1 }) as never });
    await expect(badFallback.invoke(new RunContext(), '{}')).rejects.toBeInstanceOf(InvalidToolOutputError);
    const editing = tool({
      ...base,
      name: 'edits',
      execute: async () => ({ value: 1 }) as never,
      errorFunction: (_context, error) => {
        (error as Error).message = 'SECRET';
        throw error;
      },
    });
    const error = await editing.invoke(new RunContext(), '{}').catch((e: unknown) => e);
    expect((error as Error).message).toBe("Invalid output for function tool 'edits'.");
  });

  it('raises timeouts by default and needs a timeout answer to answer with one', async () => {
    const slow = tool({
      name: 'slow',
      description: 'd',
      parameters: z.object({}),
      outputSchema: z.object({ status: z.string() }),
      timeoutMs: 5,
      execute: () => new Promise((resolve) => setTimeout(() => resolve({ status: 'done' }), 50)),
    });
    await expect(slow.invoke(new RunContext(), '{}')).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(() =>
      tool({
        name: 'no_answer',
        description: 'd',
        parameters: z.object({}),
        outputSchema: z.object({ status: z.string() }),
        timeoutMs: 5,
        timeoutBehavior: 'error_as_result',
        execute: async () => ({ status: 'done' }),
      }),
    ).toThrow(/requires timeoutErrorFunction/);
  });
});

describe('a run error handler’s final output', () => {
  it('must match the agent’s output type', async () => {
    const structured = () => new Agent({ name: 'Structured', outputType: z.object({ summary: z.string() }), model: new ScriptedModel([[assistantMessage('not json')]]) });
    setSensitiveDataLoggingEnabled(true);
    const error = await run(structured(), 'x', { errorHandlers: { invalidFinalOutput: () => ({ finalOutput: { summary: 1 } }) } })
      .catch((e: unknown) => e)
      .finally(() => setSensitiveDataLoggingEnabled(false));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/^Invalid run error handler finalOutput: .*summary/);
    const ok = await run(structured(), 'x', { errorHandlers: { invalidFinalOutput: () => ({ finalOutput: { summary: 'fallback' } }) } });
    expect(ok.finalOutput).toEqual({ summary: 'fallback' });
  });

  it('sees the string input in runData.history', async () => {
    const agent = new Agent({ name: 'Max', model: new ScriptedModel([[assistantMessage('nope')]]) });
    const result = await run(agent, 'x', { maxTurns: 0, errorHandlers: { maxTurns: ({ runData }) => ({ finalOutput: `seen:${runData.history.length}` }) } });
    expect(result.finalOutput).toBe('seen:1');
  });
});
