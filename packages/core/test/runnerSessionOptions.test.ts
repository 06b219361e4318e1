import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import type { AgentInputItem } from '@baton/types';
import { Agent, MemorySession, Runner } from '../src/index.js';
import { inputOf } from './helpers.js';

// Session options set on the Runner apply to its runs, as the reference applies them: its
// sessionInputCallback combines history and input (a run's own wins), and its reasoningItemIdPolicy
// 'omit' sends reasoning replayed from the session without its id.

const stored: AgentInputItem[] = [
  { role: 'user', content: 'earlier question' },
  { id: 'rs_stored', type: 'reasoning', content: [{ type: 'input_text', text: 'stored reasoning' }] },
];

describe('session options on the Runner', () => {
  it.each([
    ['the Runner’s callback', { runner: true, run: false }, ['new input']],
    ['a run’s own callback over the Runner’s', { runner: true, run: true }, ['run callback']],
    ['no callback: history, then input', { runner: false, run: false }, ['earlier question', 'new input']],
  ])('%s', async (_label, callbacks, expectedUserTexts) => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const agent = new Agent({ name: 'A', model });
    const runner = new Runner(callbacks.runner ? { sessionInputCallback: (_history, items) => items } : {});
    const session = new MemorySession({ initialItems: stored });
    await runner.run(agent, 'new input', {
      session,
      ...(callbacks.run ? { sessionInputCallback: () => [{ role: 'user' as const, content: 'run callback' }] } : {}),
    });
    const sent = inputOf(model.calls[0]!) as AgentInputItem[];
    expect(sent.filter((item) => 'role' in item && item.role === 'user').map((item) => (item as { content: string }).content)).toEqual(expectedUserTexts);
  });

  it.each([
    ['omit', undefined],
    ['preserve', 'rs_stored'],
  ] as const)('reasoningItemIdPolicy %s on the Runner: the stored reasoning id sent is %s', async (policy, expectedId) => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const agent = new Agent({ name: 'A', model });
    await new Runner({ reasoningItemIdPolicy: policy }).run(agent, 'new input', { session: new MemorySession({ initialItems: stored }) });
    const reasoning = (inputOf(model.calls[0]!) as AgentInputItem[]).find((item) => item.type === 'reasoning');
    expect(reasoning).toEqual({ ...(expectedId ? { id: expectedId } : {}), type: 'reasoning', content: [{ type: 'input_text', text: 'stored reasoning' }] });
  });
});
