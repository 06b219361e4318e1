import { describe, expect, it } from 'vitest';
import { Agent, RunToolSearchCallItem, RunToolSearchOutputItem } from '@baton/core';
import { RunItemStreamEvent, type RunStreamEvent } from '@baton/types';
import { createAiSdkUiMessageStream, type AiSdkUiMessageChunk } from '../src/ui.js';

async function chunksOf(events: RunStreamEvent[]): Promise<AiSdkUiMessageChunk[]> {
  const source = (async function* () {
    yield* events;
  })();
  const reader = createAiSdkUiMessageStream(source).getReader();
  const chunks: AiSdkUiMessageChunk[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

describe('tool searches in the UI message stream', () => {
  it('shows each search as a tool_search tool part, answered by the output that names it or the oldest open search of its kind', async () => {
    const agent = new Agent({ name: 'Searcher' });
    const call = (raw: Record<string, unknown>) => new RunItemStreamEvent('tool_search_called', new RunToolSearchCallItem({ type: 'tool_search_call', status: 'completed', ...raw } as never, agent));
    const output = (raw: Record<string, unknown>, name: string) =>
      new RunItemStreamEvent('tool_search_output_created', new RunToolSearchOutputItem({ type: 'tool_search_output', status: 'completed', tools: [{ type: 'tool_reference', toolName: name }], ...raw } as never, agent));
    const chunks = await chunksOf([
      call({ id: 'item_client', arguments: { query: 'orders' } }),
      call({ id: 'item_server', execution: 'server', arguments: { query: 'refunds' } }),
      output({ execution: 'server' }, 'refund'),
      output({}, 'order_v1'),
      output({ callId: 'item_client' }, 'order_v2'),
    ] as unknown as RunStreamEvent[]);
    expect(chunks.filter((chunk) => chunk.type === 'tool-input-available')).toEqual([
      { type: 'tool-input-available', toolCallId: 'item_client', toolName: 'tool_search', input: { query: 'orders' }, dynamic: true },
      { type: 'tool-input-available', toolCallId: 'item_server', toolName: 'tool_search', input: { query: 'refunds' }, dynamic: true },
    ]);
    expect(chunks.filter((chunk) => chunk.type === 'tool-output-available').map((chunk) => [chunk.toolCallId, (chunk.output as Array<{ toolName: string }>)[0]!.toolName])).toEqual([
      ['item_server', 'refund'],
      ['item_client', 'order_v1'],
      ['item_client', 'order_v2'],
    ]);
  });
});
