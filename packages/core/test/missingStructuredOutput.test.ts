import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, ModelBehaviorError, run } from '../src/index.js';

const Summary = z.object({ summary: z.string() });

describe('a structured-output agent whose model gives no answer', () => {
  it.each([
    ['no message at all', []],
    ['an empty message', [assistantMessage('')]],
  ] as const)('with %s, the invalidFinalOutput handler answers without another model turn', async (_label, output) => {
    const model = new ScriptedModel([[...output], [assistantMessage('{"summary":"not asked for"}')]]);
    const agent = new Agent({ name: 'Summarizer', outputType: Summary, model });
    const errors: unknown[] = [];
    const result = await run(agent, 'x', {
      errorHandlers: {
        invalidFinalOutput: ({ error }) => {
          errors.push(error);
          return { finalOutput: { summary: 'fallback' } };
        },
      },
    });
    expect(result.finalOutput).toEqual({ summary: 'fallback' });
    expect(model.calls).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ModelBehaviorError);
    expect((errors[0] as Error).message).toBe('Model returned no final output for the structured output type.');
  });

  it('asks the model again when no handler answers', async () => {
    const model = new ScriptedModel([[assistantMessage('')], [assistantMessage('{"summary":"second try"}')]]);
    const agent = new Agent({ name: 'Summarizer', outputType: Summary, model });
    const result = await run(agent, 'x', { errorHandlers: { invalidFinalOutput: () => undefined } });
    expect(result.finalOutput).toEqual({ summary: 'second try' });
    expect(model.calls).toHaveLength(2);
  });
});
