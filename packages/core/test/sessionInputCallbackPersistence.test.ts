import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import type { AgentInputItem } from '@baton/types';
import { Agent, MemorySession, run } from '../src/index.js';

const user = (content: string): AgentInputItem => ({ role: 'user', content }) as AgentInputItem;
const outline = (items: AgentInputItem[]) => items.map((item) => ('role' in item ? `${item.role}:${typeof item.content === 'string' ? item.content : (item.content as Array<{ text?: string }>)[0]?.text}` : item.type));

type Callback = (history: AgentInputItem[], newItems: AgentInputItem[]) => AgentInputItem[];

// What a run saves to its session as its new input when a sessionInputCallback combined history and input.
const cases: Array<{ name: string; callback: Callback; sent: string[]; saved: string[] }> = [
  {
    name: 'a rewritten new input is saved as rewritten',
    callback: (history, items) => [...history, ...items.map((item) => ({ ...item, content: '[redacted]' }) as AgentInputItem)],
    sent: ['user:earlier', 'assistant:before', 'user:[redacted]'],
    saved: ['user:earlier', 'assistant:before', 'user:[redacted]', 'assistant:answer'],
  },
  {
    name: 'a dropped new input is not saved',
    callback: (history) => history,
    sent: ['user:earlier', 'assistant:before'],
    saved: ['user:earlier', 'assistant:before', 'assistant:answer'],
  },
  {
    name: 'history the callback copied is not saved again',
    callback: (history, items) => [...history.map((item) => ({ ...item }) as AgentInputItem), ...items],
    sent: ['user:earlier', 'assistant:before', 'user:card 4242'],
    saved: ['user:earlier', 'assistant:before', 'user:card 4242', 'assistant:answer'],
  },
  {
    name: 'the new input put before the history is saved once, after it',
    callback: (history, items) => [...items, ...history],
    sent: ['user:card 4242', 'user:earlier', 'assistant:before'],
    saved: ['user:earlier', 'assistant:before', 'user:card 4242', 'assistant:answer'],
  },
  {
    name: 'an item the callback adds is saved with the new input',
    callback: (history, items) => [...history, user('context: gold customer'), ...items],
    sent: ['user:earlier', 'assistant:before', 'user:context: gold customer', 'user:card 4242'],
    saved: ['user:earlier', 'assistant:before', 'user:context: gold customer', 'user:card 4242', 'assistant:answer'],
  },
  {
    name: 'a new input equal to a history item is still new (history is matched once per item)',
    callback: (history, items) => [...history, ...items.map(() => user('earlier'))],
    sent: ['user:earlier', 'assistant:before', 'user:earlier'],
    saved: ['user:earlier', 'assistant:before', 'user:earlier', 'assistant:answer'],
  },
];

describe('sessionInputCallback: what the session keeps as the new input', () => {
  it.each(cases)('$name', async ({ callback, sent, saved }) => {
    const session = new MemorySession();
    await session.addItems([user('earlier'), { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'before' }] } as AgentInputItem]);
    const model = new ScriptedModel([[assistantMessage('answer')]]);
    await run(new Agent({ name: 'Support', model }), 'card 4242', { session, sessionInputCallback: callback });
    expect(outline(model.lastCall!.request.input as AgentInputItem[])).toEqual(sent);
    expect(outline(await session.getItems())).toEqual(saved);
  });

  it('without a callback the new input is saved as given', async () => {
    const session = new MemorySession();
    const model = new ScriptedModel([[assistantMessage('answer')]]);
    await run(new Agent({ name: 'Support', model }), 'card 4242', { session });
    expect(outline(await session.getItems())).toEqual(['user:card 4242', 'assistant:answer']);
  });
});
