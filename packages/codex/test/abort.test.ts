import { describe, expect, it } from 'vitest';
import { Agent, Runner } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { codexTool } from '../src/index.js';
import { fakeCodex } from './helpers.js';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a cancelled run', () => {
  it('stops the Codex process of the call in flight', async () => {
    const { codex, invocations } = fakeCodex();
    const controller = new AbortController();
    const tool = codexTool({
      codex,
      // Cancel once Codex has started its turn.
      onStream: ({ event }) => {
        if (event.type === 'turn.started') controller.abort();
      },
    });
    const agent = new Agent({
      name: 'Engineer',
      tools: [tool],
      model: new ScriptedModel([[functionCall('codex', { inputs: [{ type: 'text', text: 'HANG' }], threadId: null })], [assistantMessage('never')]]),
    });
    const started = Date.now();
    await new Runner().run(agent, 'Go', { signal: controller.signal }).catch(() => undefined);
    expect(Date.now() - started).toBeLessThan(20_000);
    const [call] = invocations();
    expect(call?.input).toBe('HANG');
    await until(() => !isRunning(call!.pid));
  });
});
