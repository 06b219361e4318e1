import { describe, expect, it } from 'vitest';
import { UserError } from '@baton/types';
// Only the definitions layer: the engine (runner.ts), which hands `asTool()` its tool factory when
// it loads, is not loaded in this file's module graph.
import { Agent } from '../src/definitions/agent.js';

describe('agent.asTool() without the engine loaded', () => {
  it('fails with a UserError saying what to import, before building anything', () => {
    const agent = new Agent({ name: 'Helper' });
    expect(() => agent.asTool()).toThrow(UserError);
    expect(() => agent.asTool()).toThrow(/Agent "Helper" asTool: Baton's run engine is not loaded; import Agent from '@baton\/core'/);
  });

  it('builds the tool once the engine is loaded', async () => {
    await import('../src/engine/runner.js');
    const tool = new Agent({ name: 'Helper' }).asTool({ toolDescription: 'helps' });
    expect(tool).toMatchObject({ type: 'function', name: 'Helper', description: 'helps' });
  });
});
