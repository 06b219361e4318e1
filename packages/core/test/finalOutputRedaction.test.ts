import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, ModelBehaviorError, UserError, run, setSensitiveDataLoggingEnabled } from '../src/index.js';

const PRIVATE = 'customer-card-4111';
const Order = z.object({ card: z.string().refine((v) => v !== PRIVATE, { message: `rejected ${PRIVATE}` }) });
const REDACTED = 'Invalid output type: final assistant output did not match the expected schema.';

const orderAgent = (...turns: Parameters<typeof assistantMessage>[0][]) =>
  new Agent({ name: 'Orders', outputType: Order, model: new ScriptedModel(turns.map((text) => [assistantMessage(text)])) });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the run should have failed');
    },
    (error: unknown) => error,
  );

afterEach(() => setSensitiveDataLoggingEnabled(false));

describe('a structured final output that fails to parse', () => {
  it('fails with a redacted ModelBehaviorError by default: no model data, no cause', async () => {
    const error = await failure(run(orderAgent(JSON.stringify({ card: PRIVATE })), 'go'));
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toBe(REDACTED);
    expect(String(error)).not.toContain(PRIVATE);
    expect((error as Error).cause).toBeUndefined();
  });

  it('names the problem once model data may be logged', async () => {
    setSensitiveDataLoggingEnabled(true);
    const error = await failure(run(orderAgent(JSON.stringify({ card: PRIVATE })), 'go'));
    expect(error).toBeInstanceOf(ModelBehaviorError);
    expect((error as Error).message).toContain(PRIVATE);
  });

  it('is parsed by a replaced processFinalOutput, whose failure is redacted too', async () => {
    const agent = orderAgent(JSON.stringify({ card: 'fine' }));
    agent.processFinalOutput = (text: string) => {
      throw new Error(`parser refused ${text} ${PRIVATE}`);
    };
    const error = await failure(run(agent, 'go'));
    expect((error as Error).message).toBe(REDACTED);
    expect(String(error)).not.toContain(PRIVATE);
  });

  it('keeps the redaction decided when parsing started, even if the parser turns logging on', async () => {
    const agent = orderAgent('{}');
    agent.processFinalOutput = () => {
      setSensitiveDataLoggingEnabled(true);
      throw new Error(PRIVATE);
    };
    const error = await failure(run(agent, 'go'));
    expect((error as Error).message).toBe(REDACTED);
  });

  it('hands the invalid-output handler the redacted error, with the raw responses still in runData', async () => {
    const seen: unknown[] = [];
    const result = await run(orderAgent(JSON.stringify({ card: PRIVATE })), 'go', {
      errorHandlers: {
        invalidFinalOutput: ({ error, runData }) => {
          seen.push(error);
          expect(JSON.stringify(runData.rawResponses)).toContain(PRIVATE);
          return { finalOutput: { card: 'fallback' } };
        },
      },
    });
    expect(result.finalOutput).toEqual({ card: 'fallback' });
    expect((seen[0] as Error).message).toBe(REDACTED);
  });

  it('turns a throwing invalid-output handler into "Error details are redacted." without a cause', async () => {
    const error = await failure(
      run(orderAgent(JSON.stringify({ card: PRIVATE })), 'go', {
        errorHandlers: {
          invalidFinalOutput: ({ runData }) => {
            throw new Error(JSON.stringify(runData.rawResponses));
          },
        },
      }),
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('Error details are redacted.');
    expect((error as Error).cause).toBeUndefined();
  });

  it('never reads a hostile value a parser throws, in the answer or in the handler’s fallback', async () => {
    let touched = 0;
    const hostile = new Proxy(
      {},
      {
        get() {
          touched += 1;
          throw new Error('read');
        },
        getPrototypeOf() {
          touched += 1;
          throw new Error('read');
        },
      },
    );
    const agent = orderAgent('{}');
    agent.processFinalOutput = () => {
      throw hostile;
    };
    const error = await failure(run(agent, 'go', { errorHandlers: { invalidFinalOutput: () => ({ finalOutput: { card: 'fallback' } }) } }));
    expect(touched).toBe(0);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('Error details are redacted.');
  });
});

describe('a structured agent that answers with no message', () => {
  const reasoningOnly = () =>
    new ScriptedModel([
      [{ type: 'reasoning', id: 'r1', content: [{ type: 'input_text', text: PRIVATE }] } as never],
      [assistantMessage(JSON.stringify({ card: 'second try' }))],
    ]);

  it('asks the invalid-output handler for a final output', async () => {
    const agent = new Agent({ name: 'Orders', outputType: Order, model: reasoningOnly() });
    const messages: string[] = [];
    const result = await run(agent, 'go', {
      errorHandlers: {
        invalidFinalOutput: ({ error }) => {
          messages.push(error.message);
          return { finalOutput: { card: 'fallback' } };
        },
      },
    });
    expect(messages).toEqual(['Model returned no final output for the structured output type.']);
    expect(result.finalOutput).toEqual({ card: 'fallback' });
  });

  it('asks the model again when the handler answers nothing, or there is none', async () => {
    const agent = new Agent({ name: 'Orders', outputType: Order, model: reasoningOnly() });
    expect((await run(agent, 'go', { errorHandlers: { invalidFinalOutput: () => undefined } })).finalOutput).toEqual({ card: 'second try' });
    const again = new Agent({ name: 'Orders', outputType: Order, model: reasoningOnly() });
    expect((await run(again, 'go')).finalOutput).toEqual({ card: 'second try' });
  });
});

describe('a max-turns or refusal fallback', () => {
  it('is checked by a replaced processFinalOutput, and its failure says why (it is not model data)', async () => {
    const agent = new Agent({ name: 'Text', model: new ScriptedModel([]) });
    agent.processFinalOutput = () => {
      throw new Error('only numbers');
    };
    const error = await failure(run(agent, 'go', { maxTurns: 0, errorHandlers: { maxTurns: () => ({ finalOutput: 'words' }) } }));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('Invalid run error handler finalOutput: only numbers');
  });
});
