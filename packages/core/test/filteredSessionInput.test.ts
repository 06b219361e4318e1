import { describe, expect, it } from 'vitest';
import type { AgentInputItem } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';
import { Agent, MemorySession, run, tool } from '../src/index.js';
import { filteredInputSources } from '../src/engine/internal/loop/filteredInputSources.js';
import { FilteredSessionInput } from '../src/state/internal/filteredSessionInput.js';

const user = (text: string): AgentInputItem => ({ type: 'message', role: 'user', content: text });
const textOf = (item: AgentInputItem | undefined) => (item as { content?: unknown } | undefined)?.content;

describe('filteredInputSources: which given item each item of the filter answer stands for', () => {
  const a = user('a');
  const b = user('b');
  const c = user('c');
  const given = [a, b, c];
  const handed = given.map((item) => structuredClone(item));
  const [ha, hb, hc] = handed as [AgentInputItem, AgentInputItem, AgentInputItem];

  it.each<[string, AgentInputItem[], Array<AgentInputItem | undefined>]>([
    ['the handed items as they are', [ha, hb, hc], [a, b, c]],
    ['reordered', [hc, ha], [c, a]],
    ['a handed item twice: the second is the filter\'s own', [hb, hb], [b, undefined]],
    ['a copy equal in content to a handed item no other answer item is', [user('b')], [b]],
    ['a copy prepended to the handed items it equals: the copy is the filter\'s own', [structuredClone(ha), ha, hb, hc], [undefined, a, b, c]],
    ['rebuilt items (a redaction) take the unmatched given items in order', [user('x'), user('y'), user('z')], [a, b, c]],
    ['a rebuilt item beside handed ones takes the given item left over', [ha, user('x'), hc], [a, b, c]],
    ['more rebuilt items than given items: the rest are the filter\'s own', [ha, hb, hc, user('extra')], [a, b, c, undefined]],
    ['nothing', [], []],
  ])('%s', (_label, answer, expected) => {
    expect(filteredInputSources(given, handed, answer)).toEqual(expected);
    // Identity, not only equal content.
    filteredInputSources(given, handed, answer).forEach((source, index) => expect(source).toBe(expected[index]));
  });

  it('with the items themselves handed (a filter keeping identities), each is its own source', () => {
    expect(filteredInputSources(given, given, [c, b])).toEqual([c, b]);
  });
});

describe('FilteredSessionInput: the new input as the model was last sent it', () => {
  const first = user('first SECRET');
  const second = user('second');
  const history = user('history');

  it('nothing is saved until a filter ran', () => {
    expect(new FilteredSessionInput([first]).items()).toBeUndefined();
  });

  it('keeps the filter\'s version of each new-input item, not history, and a copy of what it was sent', () => {
    const tracked = new FilteredSessionInput([first, second]);
    const sentFirst = user('[redacted]');
    tracked.record([history, first, second], [user('history'), sentFirst, second]);
    const items = tracked.items()!;
    expect(items.map(textOf)).toEqual(['[redacted]', 'second']);
    expect(items[0]).not.toBe(sentFirst);
    (sentFirst as { content: string }).content = 'changed later';
    expect(tracked.items()!.map(textOf)).toEqual(['[redacted]', 'second']);
  });

  it('an item the latest turn left out keeps an earlier version; added items are the latest turn\'s', () => {
    const tracked = new FilteredSessionInput([first, second]);
    tracked.record([first, second, undefined], [user('one'), user('two'), user('added on turn 1')]);
    tracked.record([undefined, second], [user('added on turn 2'), user('two, again')]);
    expect(tracked.items()!.map(textOf)).toEqual(['one', 'added on turn 2', 'two, again']);
  });

  it('a filter that dropped everything keeps nothing', () => {
    const tracked = new FilteredSessionInput([first]);
    tracked.record([], []);
    expect(tracked.items()).toEqual([]);
  });

  it('an object given twice in the new input holds two places', () => {
    const tracked = new FilteredSessionInput([first, first]);
    tracked.record([first, first, first], [user('1'), user('2'), user('3')]);
    expect(tracked.items()!.map(textOf)).toEqual(['1', '2']);
  });
});

describe('a run with a session and a callModelInputFilter', () => {
  const lookup = tool({ name: 'lookup', description: 'l', parameters: z.object({}), execute: () => 'found' });
  const redact = ({ modelData }: { modelData: { input: AgentInputItem[]; instructions?: string } }) => ({
    ...modelData,
    input: modelData.input.map((item) => ((item as { role?: string }).role === 'user' ? user('[redacted]') : item)),
  });

  it.each([false, true])('saves the redacted input, never the raw one (streamed: %s)', async (stream) => {
    const session = new MemorySession({ initialItems: [user('earlier')] });
    const model = new ScriptedModel([[functionCall('lookup', {})], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'A', model, tools: [lookup] });
    if (stream) {
      const result = await run(agent, 'SECRET question', { session, callModelInputFilter: redact, stream: true });
      for await (const _event of result);
      await result.completed;
    } else {
      await run(agent, 'SECRET question', { session, callModelInputFilter: redact });
    }
    const items = await session.getItems();
    expect(JSON.stringify(items)).not.toContain('SECRET');
    expect(items.filter((item) => (item as { role?: string }).role === 'user').map(textOf)).toEqual(['earlier', '[redacted]']);
    expect(items.map((item) => item.type)).toEqual(['message', 'message', 'function_call', 'function_call_result', 'message']);
  });

  it('without a filter the input is saved as given', async () => {
    const session = new MemorySession();
    await run(new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('done')]]) }), 'plain question', { session });
    expect((await session.getItems()).map(textOf)[0]).toBe('plain question');
  });
});
