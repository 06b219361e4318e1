import { describe, expect, it, vi } from 'vitest';
import { z as z41 } from 'zod-4-1';
import { UserError } from '@baton/types';
import { ScriptedModel, assistantMessage } from '@baton/testing';

// Where no zod 4 can be loaded beside @baton/core, a zod 4.0 / 4.1 schema is refused with a
// message that says why and how to fix it.
vi.mock('../src/definitions/internal/legacyZod4Schema.js', async (original) => ({
  ...(await original<typeof import('../src/definitions/internal/legacyZod4Schema.js')>()),
  legacyZod4JsonSchema: () => undefined,
}));

const { Agent, run, tool } = await import('../src/index.js');

describe('a zod 4 schema from before 4.2 with no zod to describe it', () => {
  const expectRefusal = (refusal: unknown, owner: string) => {
    expect(refusal).toBeInstanceOf(UserError);
    expect((refusal as Error).message).toContain(`${owner}: the schema comes from a zod 4 release before 4.2`);
    expect((refusal as Error).message).toMatch(/install zod \(\^3\.25 or \^4\) beside @baton\/core, or upgrade zod to 4\.2 or later/);
  };

  it('tool parameters: a UserError naming the owner, the zod release and the fix, when the tool is made', () => {
    const make = () => tool({ name: 't', description: 'd', parameters: z41.object({ a: z41.string() }), execute: () => 'ok' });
    expect(make).toThrow(UserError);
    let refusal: unknown;
    try {
      make();
    } catch (error) {
      refusal = error;
    }
    expectRefusal(refusal, 'tool "t" parameters');
  });

  it('an outputType: the same UserError when a run first asks the model with it (a zod object is described then, as on the reference)', async () => {
    const model = new ScriptedModel([[assistantMessage('{"a":"x"}')]]);
    const agent = new Agent({ name: 'A', model, outputType: z41.object({ a: z41.string() }) });
    expectRefusal(await run(agent, 'hi').catch((error: unknown) => error), 'Agent "A" outputType');
    expect(model.calls).toHaveLength(0);
  });
});
