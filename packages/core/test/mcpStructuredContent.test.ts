// The mcp README: with `useStructuredContent` the model receives a result's `structuredContent` as
// JSON; a result without one (or an error result) reaches it as its content, as the reference
// sends it (one block alone).
import { describe, expect, it } from 'vitest';
import type { CallToolResult, MCPServer } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall, toolResultsOf } from '@baton/testing';
import { Agent, Runner } from '../src/index.js';

function server(result: CallToolResult): MCPServer {
  return {
    name: 'db',
    cacheToolsList: false,
    useStructuredContent: true,
    connect: async () => {},
    close: async () => {},
    listTools: async () => [{ name: 'count', inputSchema: { type: 'object', properties: {} } }],
    callTool: async () => Object.assign([...result.content], result) as never,
    callToolResult: async () => result,
    invalidateToolsCache: async () => {},
  };
}

describe('useStructuredContent', () => {
  it('a result without structuredContent reaches the model as its content', async () => {
    const model = new ScriptedModel([[functionCall('count', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'A', model, mcpServers: [server({ content: [{ type: 'text', text: 'four' }] })] }), 'go');
    expect(toolResultsOf(model.lastCall)[0]?.output).toEqual([{ type: 'input_text', text: 'four' }]);
  });
});
