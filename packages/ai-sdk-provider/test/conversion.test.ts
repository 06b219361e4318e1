import { describe, expect, it } from 'vitest';
import { UserError, type AgentInputItem } from '@baton/types';
import { getResponseFormat, itemsToLanguageV2Messages, parseArguments, toolChoiceToLanguageV2Format, toolToLanguageV2Tool } from '../src/index.js';

const v2 = { specificationVersion: 'v2', provider: 'acme.chat', modelId: 'acme-1' };
const v4 = { specificationVersion: 'v4', provider: 'acme.chat', modelId: 'acme-1' };
const deepseek = { specificationVersion: 'v3', provider: 'deepseek.chat', modelId: 'deepseek-reasoner' };

describe('itemsToLanguageV2Messages (the reference helper)', () => {
  it('sends a turn message by message: tool calls together, each result its own tool message, providerData as providerOptions', () => {
    const items = [
      { role: 'user', content: 'Weather in Lisbon and Porto?' },
      { type: 'reasoning', content: [{ type: 'input_text', text: 'two lookups' }], providerData: { model: 'acme.chat:acme-1', acme: { signature: 's' } } },
      { type: 'function_call', callId: 'c1', name: 'weather', arguments: '{"city":"Lisbon"}', providerData: { acme: { id: 1 } } },
      { type: 'function_call', callId: 'c2', name: 'weather', arguments: 'not json' },
      { type: 'function_call_result', callId: 'c1', name: 'weather', status: 'completed', output: 'sunny' },
      { type: 'function_call_result', callId: 'c2', name: 'weather', status: 'completed', output: [{ type: 'input_image', image: 'data:image/png;base64,iVBORw0KGgo=' }] },
    ] as AgentInputItem[];
    expect(itemsToLanguageV2Messages(v4, items)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Lisbon and Porto?' }], providerOptions: {} },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'two lookups', providerOptions: { acme: { signature: 's' } } }], providerOptions: { acme: { signature: 's' } } },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Lisbon' }, providerOptions: { acme: { id: 1 } } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: {}, providerOptions: {} },
        ],
        providerOptions: { acme: { id: 1 } },
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: { type: 'text', value: 'sunny' }, providerOptions: {} }], providerOptions: {} },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'weather', output: { type: 'content', value: [{ type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' }] }, providerOptions: {} }],
        providerOptions: {},
      },
    ]);
  });

  it('leaves out provider data stamped by another model, and bundles reasoning with the tool call for DeepSeek reasoners', () => {
    const items = [
      { type: 'reasoning', content: [{ type: 'input_text', text: 'think' }], providerData: { model: 'other:model', other: { signature: 'x' } } },
      { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}' },
    ] as AgentInputItem[];
    expect(itemsToLanguageV2Messages(deepseek, items)).toEqual([
      { role: 'assistant', content: [{ type: 'reasoning', text: 'think', providerOptions: {} }, { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: {}, providerOptions: {} }], providerOptions: {} },
    ]);
  });

  it('files: data URLs and PDFs by URL in the spec shape; OpenAI file ids and unknown media types are a UserError', () => {
    const file = (part: Record<string, unknown>) => [{ role: 'user', content: [{ type: 'input_file', ...part }] }] as AgentInputItem[];
    expect(itemsToLanguageV2Messages(v2, file({ file: 'https://example.com/a.pdf' }))[0]).toMatchObject({ content: [{ type: 'file', mediaType: 'application/pdf', data: new URL('https://example.com/a.pdf') }] });
    expect(itemsToLanguageV2Messages(v4, file({ file: 'data:application/pdf;base64,JVBERi0=' }))[0]).toMatchObject({ content: [{ type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: 'JVBERi0=' } }] });
    expect(() => itemsToLanguageV2Messages(v4, file({ file: { id: 'file_1' } }))).toThrow(/OpenAI file IDs are not supported/);
    expect(() => itemsToLanguageV2Messages(v4, file({ file: 'https://example.com/blob' }))).toThrow(UserError);
  });

  it('items an AI SDK model cannot take are a UserError', () => {
    for (const type of ['hosted_tool_call', 'computer_call', 'shell_call', 'apply_patch_call_output', 'bogus']) {
      expect(() => itemsToLanguageV2Messages(v4, [{ type } as unknown as AgentInputItem])).toThrow(UserError);
    }
  });
});

describe('the other reference helpers', () => {
  it('toolToLanguageV2Tool: function tools by qualified name, hosted tools as provider tools of the spec', () => {
    expect(toolToLanguageV2Tool(v4, { type: 'function', name: 'lookup', namespace: 'crm', description: 'd', parameters: { type: 'object' }, strict: true } as never)).toEqual({
      type: 'function',
      name: 'crm.lookup',
      description: 'd',
      inputSchema: { type: 'object' },
      strict: true,
    });
    expect(toolToLanguageV2Tool(v2, { type: 'hosted_tool', name: 'search', providerData: { args: { q: 1 } } })).toEqual({ type: 'provider-defined', id: 'acme.chat.search', name: 'search', args: { q: 1 } });
    expect(toolToLanguageV2Tool({ ...v4, provider: 'openai.responses' }, { type: 'hosted_tool', name: 'file_search' })).toEqual({ type: 'provider', id: 'openai.file_search', name: 'file_search', args: {} });
    expect(() => toolToLanguageV2Tool(v4, { type: 'function', name: 'x', deferLoading: true } as never)).toThrow(/deferred Responses function tools/);
    expect(() => toolToLanguageV2Tool(v4, { type: 'computer', name: 'c' })).toThrow(/environment and dimensions/);
  });

  it('toolChoiceToLanguageV2Format, getResponseFormat and parseArguments', () => {
    expect(['auto', 'required', 'none', 'lookup', undefined].map((choice) => toolChoiceToLanguageV2Format(choice))).toEqual([
      { type: 'auto' },
      { type: 'required' },
      { type: 'none' },
      { type: 'tool', toolName: 'lookup' },
      undefined,
    ]);
    expect(getResponseFormat('text')).toEqual({ type: 'text' });
    expect(getResponseFormat({ type: 'json_schema', name: 'out', strict: true, schema: { type: 'object' } as never })).toEqual({ type: 'json', name: 'out', schema: { type: 'object' } });
    expect([parseArguments('{"a":1}'), parseArguments(''), parseArguments('{oops'), parseArguments(null)]).toEqual([{ a: 1 }, {}, {}, {}]);
  });
});
