import type { ModelRequest, ModelStreamEvent } from '@baton/types';

/** A minimal model request, as the runner would send it. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    input: 'hello',
    modelSettings: {},
    tools: [],
    outputType: 'text',
    handoffs: [],
    tracing: false,
    ...overrides,
  };
}

export async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Runs `fn` and returns what it threw (fails the test if it did not throw). */
export async function caught(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to throw');
}
