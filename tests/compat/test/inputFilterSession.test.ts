import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, type SdkUnderTest } from './sdks.js';

// What a session keeps of a run's new input when a `callModelInputFilter` shapes what the model is
// sent: the model's version (a redaction stays redacted, a dropped item is not kept), the items the
// filter added, and never the history again. The same program on both SDKs.

type Item = Record<string, unknown>;
type Filter = ((args: { modelData: { input: Item[]; instructions?: string } }) => { input: Item[]; instructions?: string }) & { preserveInputIdentity?: boolean };

interface Case {
  readonly filter?: (turn: number) => Filter;
  readonly input?: string | Item[];
  readonly history?: Item[];
  readonly sessionInputCallback?: (history: Item[], newItems: Item[]) => Item[];
  readonly toolTurn?: boolean;
  readonly stream?: boolean;
}

const user = (text: string): Item => ({ type: 'message', role: 'user', content: text });
const isUser = (item: Item) => item.type === 'message' && item.role === 'user';
const redacted = (input: Item[]) => input.map((item) => (isUser(item) ? user('[redacted]') : item));

/** Text of a message, or the item's type: enough to tell what was kept, in order. */
function label(item: Item): string {
  if (item.type !== 'message' && !('role' in item)) return String(item.type);
  const content = item.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
  return `${String(item.role)}:${text}`;
}

async function filteredRun({ sdk }: SdkUnderTest, c: Case) {
  const stored: Item[] = (c.history ?? []).map((item) => structuredClone(item));
  const added: string[][] = [];
  const session = {
    getSessionId: async () => 'filtered',
    getItems: async () => structuredClone(stored),
    addItems: async (items: Item[]) => {
      added.push(items.map(label));
      stored.push(...structuredClone(items));
    },
    popItem: async () => stored.pop(),
    clearSession: async () => void (stored.length = 0),
  };
  const sent: string[][] = [];
  let answered = 0;
  const model = {
    async getResponse(request: { input: string | Item[] }) {
      sent.push(typeof request.input === 'string' ? [request.input] : request.input.map(label));
      answered += 1;
      const output =
        c.toolTurn && answered === 1
          ? [{ type: 'function_call', callId: 'call_1', name: 'lookup', arguments: '{}', status: 'completed' }]
          : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] }];
      return { output, usage: new sdk.Usage({ requests: 1 }), responseId: `r${answered}` };
    },
    async *getStreamedResponse(request: { input: string | Item[] }) {
      const response = await this.getResponse(request);
      yield { type: 'response_done', response: { id: response.responseId, usage: { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: response.output } };
    },
  };
  const lookup = sdk.tool({ name: 'lookup', description: 'l', parameters: z.object({}), execute: async () => 'found' });
  const agent = new sdk.Agent({ name: 'A', model: model as never, tools: [lookup] });
  let turn = 0;
  const filter = c.filter
    ? Object.assign((args: { modelData: { input: Item[]; instructions?: string } }) => c.filter!(++turn)(args), { preserveInputIdentity: c.filter(0).preserveInputIdentity })
    : undefined;
  const options = {
    session,
    ...(filter ? { callModelInputFilter: filter } : {}),
    ...(c.sessionInputCallback ? { sessionInputCallback: c.sessionInputCallback } : {}),
  } as never;
  const input = (c.input ?? 'SECRET question') as never;
  if (c.stream) {
    const result = await sdk.run(agent, input, { ...(options as object), stream: true } as never);
    for await (const _event of result);
    await result.completed;
  } else {
    await sdk.run(agent, input, options);
  }
  return { sent, added, stored: stored.map((item) => label(item)) };
}

const keep: () => Filter = () => ({ modelData }) => ({ ...modelData, input: modelData.input });
const redact: () => Filter = () => ({ modelData }) => ({ ...modelData, input: redacted(modelData.input) });

describe('callModelInputFilter and the session: the session keeps what the model was sent of the new input (same on both SDKs)', () => {
  it.each<[string, Case]>([
    ['no filter (the input as given)', {}],
    ['a filter that passes the input on', { filter: keep }],
    ['a filter that redacts every user message', { filter: redact }],
    ['a redacting filter, with history in the session', { filter: redact, history: [user('earlier'), { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }] }],
    ['a redacting filter over a tool turn', { filter: redact, toolTurn: true }],
    ['a redacting filter, streamed', { filter: redact, stream: true }],
    ['a filter that drops every item', { filter: () => ({ modelData }) => ({ ...modelData, input: [] }) }],
    ['a filter that prepends a copy of the first item', { filter: () => ({ modelData }) => ({ ...modelData, input: [structuredClone(modelData.input[0]!), ...modelData.input] }) }],
    ['a filter that sends the current item twice', { history: [user('SECRET question')], filter: () => ({ modelData }) => ({ ...modelData, input: [modelData.input.at(-1)!, modelData.input.at(-1)!] }) }],
    ['a filter that adds an item on its second turn only', { toolTurn: true, filter: (turn) => ({ modelData }) => ({ ...modelData, input: turn >= 2 ? [user('injected'), ...modelData.input] : modelData.input }) }],
    ['a filter that keeps only the last item', { input: [user('one SECRET'), user('two')], filter: () => ({ modelData }) => ({ ...modelData, input: modelData.input.slice(-1) }) }],
    ['a filter that reverses two new items', { input: [user('one'), user('two')], filter: () => ({ modelData }) => ({ ...modelData, input: [...modelData.input].reverse() }) }],
    ['a filter keeping identities that redacts', { filter: () => Object.assign((({ modelData }) => ({ ...modelData, input: redacted(modelData.input) })) as Filter, { preserveInputIdentity: true }) }],
    ['a filter keeping identities that passes the input on', { filter: () => Object.assign(((args) => args.modelData) as Filter, { preserveInputIdentity: true }) }],
    [
      'a sessionInputCallback that adds an item, and a redacting filter',
      { history: [user('kept history')], sessionInputCallback: (history, newItems) => [...history.slice(-1), ...newItems, user('callback added')], filter: redact },
    ],
  ])('%s', async (_label, c) => {
    const both = await onBoth((under) => filteredRun(under, c));
    expect(both.baton).toEqual(both.reference);
    if (_label.includes('redact')) expect(JSON.stringify(both.baton.added)).not.toContain('SECRET');
  });
});
