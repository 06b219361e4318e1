import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import type { AgentInputItem } from '@baton/types';
import { Agent, MemorySession, Runner } from '../src/index.js';
import { sessionSafeItems } from '../src/state/internal/sessionSafeItems.js';

const user = (text: string, providerData?: Record<string, unknown>): AgentInputItem =>
  ({ type: 'message', role: 'user', content: text, ...(providerData ? { providerData } : {}) }) as AgentInputItem;
const base64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');
const providerDataOf = (item: AgentInputItem | undefined): Record<string, any> => (item as unknown as { providerData: Record<string, any> }).providerData;

/** A session that records what each `addItems` call was given. */
class RecordingSession extends MemorySession {
  readonly added: AgentInputItem[][] = [];
  override async addItems(items: AgentInputItem[]): Promise<void> {
    this.added.push(structuredClone(items));
    await super.addItems(items);
  }
}

describe('binary data in the items a run writes to its session', () => {
  it.each([
    ['a Uint8Array', new Uint8Array([1, 2, 3]), `data:text/plain;base64,${base64([1, 2, 3])}`],
    ['an ArrayBuffer', new Uint8Array([4, 5]).buffer, `data:text/plain;base64,${base64([4, 5])}`],
    ['a DataView over part of a buffer', new DataView(new Uint8Array([9, 6, 7, 9]).buffer, 1, 2), `data:text/plain;base64,${base64([6, 7])}`],
    ['a Node Buffer', Buffer.from([8]), `data:text/plain;base64,${base64([8])}`],
    ["a Buffer's JSON form", { type: 'Buffer', data: [10, 11] }, `data:text/plain;base64,${base64([10, 11])}`],
    ['an empty byte array', new Uint8Array(0), 'data:text/plain;base64,'],
  ])('%s becomes a data URL', (_name, value, expected) => {
    const [item] = sessionSafeItems([user('x', { payload: value })]);
    expect(providerDataOf(item).payload).toBe(expected);
  });

  it('bytes under `data` or `fileData` take the media type of the object holding them; elsewhere text/plain', () => {
    const bytes = new Uint8Array([0xff, 0xd8]);
    const [item] = sessionSafeItems([
      user('x', {
        image: { mediaType: 'image/jpeg', data: bytes, thumbnail: bytes },
        file: { mediaType: 'application/pdf', fileData: bytes },
        inherited: { mediaType: 'image/png', parts: [{ data: bytes }] },
        dataUrlType: { mediaType: 'data:image/gif', data: bytes },
      }),
    ]);
    const data = providerDataOf(item);
    expect(data.image).toEqual({ mediaType: 'image/jpeg', data: `data:image/jpeg;base64,${base64([0xff, 0xd8])}`, thumbnail: `data:text/plain;base64,${base64([0xff, 0xd8])}` });
    expect(data.file.fileData).toBe(`data:application/pdf;base64,${base64([0xff, 0xd8])}`);
    expect(data.inherited.parts[0].data).toBe(`data:text/plain;base64,${base64([0xff, 0xd8])}`);
    expect(data.dataUrlType.data).toBe(`data:text/plain;base64,${base64([0xff, 0xd8])}`);
  });

  it('items without binary data are the very same objects; class instances and non-objects are kept as they are', () => {
    class Marker {
      constructor(readonly bytes = new Uint8Array([1])) {}
    }
    const plain = user('plain', { n: 1, list: ['a', { b: null }] });
    const marker = new Marker();
    const withInstance = user('instance', { marker });
    const items = [plain, withInstance];
    const safe = sessionSafeItems(items);
    expect(safe).toBe(items);
    expect(providerDataOf(safe[1]).marker).toBe(marker);
  });

  it('an item with binary data is copied: the caller’s item keeps its bytes', () => {
    const bytes = new Uint8Array([1]);
    const original = user('x', { list: ['keep', bytes] });
    const [safe] = sessionSafeItems([original]);
    expect(providerDataOf(original).list[1]).toBe(bytes);
    expect(providerDataOf(safe).list).toEqual(['keep', `data:text/plain;base64,${base64([1])}`]);
  });

  it('a run writes the new input’s bytes as data URLs; history the input callback copied is not written again', async () => {
    const historyPayload = new Uint8Array(32).fill(0xaa);
    const newPayload = new Uint8Array(32).fill(0xaa);
    historyPayload[31] = 0xbb;
    newPayload[31] = 0xcc;
    const session = new RecordingSession({ initialItems: [user('History with binary', { payload: historyPayload })] } as never);
    const agent = new Agent({ name: 'A', model: new ScriptedModel([[assistantMessage('binary response')]]) });
    await new Runner().run(agent, [user('Binary input')], {
      session,
      sessionInputCallback: (history, newItems) =>
        history.map((item) => structuredClone(item)).concat(newItems.map((item) => ({ ...structuredClone(item), providerData: { payload: newPayload } }))),
    });
    expect(session.added).toHaveLength(1);
    const payloads = session.added[0]!.map((item) => (item as { providerData?: { payload?: unknown } }).providerData?.payload).filter((p) => p !== undefined);
    expect(payloads).toEqual([`data:text/plain;base64,${Buffer.from(newPayload).toString('base64')}`]);
  });
});
