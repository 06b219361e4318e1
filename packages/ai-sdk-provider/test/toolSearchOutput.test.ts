import { describe, expect, it } from 'vitest';
import { UserError, type SerializedTool } from '@baton/types';
import { AiSdkModel, aiSdkToolSearchTool } from '../src/index.js';
import { rejectionOf, request, v4Generate, v4Model } from './helpers.js';

const search = aiSdkToolSearchTool({ type: 'provider', id: 'anthropic.tool_search_bm25_20251119', args: { maxUses: 1 } }) as unknown as SerializedTool;
const lookup = { type: 'function', name: 'lookup', description: 'Look up.', parameters: { type: 'object', properties: {} }, strict: true } as unknown as SerializedTool;

describe('tool search in an AI SDK model answer', () => {
  it('keeps the provider search call and result where the model put them, and sends them back in the assistant turn', async () => {
    const model = v4Model(
      [
        v4Generate([
          { type: 'tool-call', toolCallId: 's1', toolName: 'tool_search', input: '{"query":"lookup"}', providerExecuted: true },
          { type: 'text', text: 'found it' },
          { type: 'tool-result', toolCallId: 's1', toolName: 'tool_search', result: [{ type: 'tool_reference', toolName: 'lookup' }] },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{}' },
        ]),
        v4Generate([{ type: 'text', text: 'done' }]),
      ],
      { provider: 'anthropic.messages' },
    );
    const aisdkModel = new AiSdkModel(model);
    const first = await aisdkModel.getResponse(request({ tools: [search, lookup] }));
    expect(model.calls[0]!.tools).toContainEqual({ type: 'provider', id: 'anthropic.tool_search_bm25_20251119', name: 'tool_search', args: { maxUses: 1 } });
    expect(first.output.map((item) => item.type)).toEqual(['tool_search_call', 'message', 'tool_search_output', 'function_call']);
    expect(first.output[0]).toMatchObject({ id: 's1', execution: 'server', arguments: { query: 'lookup' }, status: 'completed' });
    expect(first.output[2]).toMatchObject({ callId: 's1', execution: 'server', status: 'completed', tools: [{ type: 'tool_reference', toolName: 'lookup' }] });

    await aisdkModel.getResponse(request({ tools: [search, lookup], input: [{ role: 'user', content: 'go' }, ...first.output] }));
    const assistant = model.calls[1]!.prompt.find((message) => message.role === 'assistant')!;
    expect((assistant.content as Array<{ type: string; toolCallId?: string; providerExecuted?: boolean }>).map((part) => [part.type, part.toolCallId, part.providerExecuted])).toEqual([
      ['tool-call', 's1', true],
      ['text', undefined, undefined],
      ['tool-result', 's1', undefined],
      ['tool-call', 'c1', undefined],
    ]);
  });

  it('names a malformed search result and refuses a custom tool that shares the tool_search name', async () => {
    const malformed = v4Model([v4Generate([{ type: 'tool-call', toolCallId: 's1', toolName: 'tool_search', input: '{}', providerExecuted: true }, { type: 'tool-result', toolCallId: 's1', toolName: 'tool_search', result: 'nothing' }])]);
    const error = await rejectionOf(new AiSdkModel(malformed).getResponse(request({ tools: [search] })));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('invalid result for call "s1"');

    const clash = v4Model([]);
    const custom = { ...lookup, name: 'tool_search' } as SerializedTool;
    await expect(new AiSdkModel(clash).getResponse(request({ tools: [search, custom] }))).rejects.toThrow(/cannot disambiguate a hosted tool_search helper/);
    expect(clash.calls).toHaveLength(0);
  });
});
