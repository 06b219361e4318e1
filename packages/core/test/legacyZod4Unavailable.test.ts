import { describe, expect, it, vi } from 'vitest';
import { z as z41 } from 'zod-4-1';
import { UserError } from '@baton/types';

// Where no zod 4 can be loaded beside @baton/core, a zod 4.0 / 4.1 schema is refused with a
// message that says why and how to fix it.
vi.mock('../src/definitions/internal/legacyZod4Schema.js', async (original) => ({
  ...(await original<typeof import('../src/definitions/internal/legacyZod4Schema.js')>()),
  legacyZod4JsonSchema: () => undefined,
}));

const { Agent, tool } = await import('../src/index.js');

describe('a zod 4 schema from before 4.2 with no zod to describe it', () => {
  it.each([
    ['tool parameters', () => tool({ name: 't', description: 'd', parameters: z41.object({ a: z41.string() }), execute: () => 'ok' }), 'tool "t" parameters'],
    ['an outputType', () => new Agent({ name: 'A', outputType: z41.object({ a: z41.string() }) }), 'Agent "A" outputType'],
  ])('%s: a UserError naming the owner, the zod release and the fix', (_label, make, owner) => {
    expect(make).toThrow(UserError);
    expect(make).toThrow(`${owner}: the schema comes from a zod 4 release before 4.2`);
    expect(make).toThrow(/install zod \(\^3\.25 or \^4\) beside @baton\/core, or upgrade zod to 4\.2 or later/);
  });
});
