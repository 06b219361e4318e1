import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidToolInputError, type ToolCallDetails } from '@baton/types';
import { RunContext, applyPatchTool, shellTool, tool } from '../src/index.js';

describe('a tool error function', () => {
  it('answers arguments that are not JSON when the tool has its own', async () => {
    const seen: unknown[] = [];
    const t = tool({
      name: 'lookup',
      description: 'Looks up',
      parameters: z.object({ id: z.string() }),
      execute: () => 'found',
      errorFunction: (_context, error) => {
        seen.push(error);
        return 'send JSON please';
      },
    });
    await expect(t.invoke(new RunContext(), 'not json')).resolves.toBe('send JSON please');
    expect(seen[0]).toBeInstanceOf(InvalidToolInputError);
    // By default tool data is not logged: the error says no more than the reference's words.
    expect((seen[0] as Error).message).toBe('Invalid JSON input for tool');
  });

  it('answers arguments that are not JSON with the default text when none is given (as the reference), and raises them with null', async () => {
    const lookup = (errorFunction?: null) => tool({ name: 'lookup', description: 'Looks up', parameters: z.object({ id: z.string() }), ...(errorFunction === null ? { errorFunction } : {}), execute: () => 'found' });
    await expect(lookup().invoke(new RunContext(), 'not json')).resolves.toBe('An error occurred while running the tool. Please try again.');
    await expect(lookup(null).invoke(new RunContext(), 'not json')).rejects.toBeInstanceOf(InvalidToolInputError);
  });

  it('receives the details the call was given', async () => {
    let received: unknown;
    const t = tool({
      name: 'fails',
      description: 'Fails',
      parameters: z.object({}),
      execute: () => {
        throw new Error('boom');
      },
      errorFunction: (_context, _error, details) => {
        received = details;
        return 'handled';
      },
    });
    const details = { resumeState: 'state-1' } as Partial<ToolCallDetails>;
    await expect(t.invoke(new RunContext(), '{}', details)).resolves.toBe('handled');
    expect(received).toBe(details);
  });
});

describe('allowedCallers', () => {
  it('rejects an undefined caller', () => {
    expect(() =>
      tool({ name: 't', description: '', parameters: z.object({}), allowedCallers: [undefined] as never, execute: () => 'ok' }),
    ).toThrow(/allowedCallers contains unsupported caller 'undefined'/);
  });

  it('is checked for shell and apply-patch tools too', () => {
    expect(() => shellTool({ shell: { run: async () => ({ output: [] }) } as never, allowedCallers: ['programmatic', 'programmatic'] as never })).toThrow(
      /Tool 'shell' allowedCallers must not contain duplicate callers/,
    );
    expect(() => applyPatchTool({ editor: { createFile: async () => {}, updateFile: async () => {}, deleteFile: async () => {} } as never, allowedCallers: [] as never })).toThrow(
      /Tool 'apply_patch' allowedCallers must contain at least one caller/,
    );
  });
});
