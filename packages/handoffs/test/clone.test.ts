import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Agent, RunContext } from '@baton/core';
import { handoff } from '../src/index.js';

describe('Handoff#clone', () => {
  it('with a new agent hands off to it, keeping the original callback’s side effects', async () => {
    const original = new Agent({ name: 'Original' });
    const converted = new Agent({ name: 'Converted' });
    const onHandoff = vi.fn();
    const h = handoff(original, { onHandoff, inputType: z.object({ reason: z.string() }), toolNameOverride: 'stable' });
    const context = new RunContext();
    const clone = h.clone({ agent: converted });
    await expect(clone.onInvokeHandoff(context, '{"reason":"x"}')).resolves.toBe(converted);
    expect(onHandoff).toHaveBeenCalledWith(context, { reason: 'x' });
    expect([clone.agentName, clone.toolName]).toEqual(['Converted', 'stable']);
    expect([h.agent, h.agentName]).toEqual([original, 'Original']);
  });

  it('an explicit onInvokeHandoff replaces the callback; isEnabled given as a boolean answers as a promise', async () => {
    const original = new Agent({ name: 'Original' });
    const converted = new Agent({ name: 'Converted' });
    const first = vi.fn();
    const h = handoff(original, { onHandoff: first, isEnabled: false });
    const clone = h.clone({ agent: converted, onInvokeHandoff: async () => converted });
    await expect(clone.onInvokeHandoff(new RunContext(), '{}')).resolves.toBe(converted);
    expect(first).not.toHaveBeenCalled();
    await expect(h.isEnabled({ runContext: new RunContext(), agent: original } as never)).resolves.toBe(false);
  });
});
