// What a span says when something below it failed without failing the run, and the MCP listing
// span, as the reference records them (agents-core's dist: `tool.js` sets a function span's error
// to `{ message: 'Error running tool (non-fatal)', data: { tool_name, error } }` when the tool's
// error function answered the model, with the error's text only for a tool's own error function
// and sensitive data on, else `Tool execution failed. Error details are redacted.`; `mcp.js` lists
// a server's tools in an `mcp_tools` span with `server` and `result`, the names offered after the
// filter). The tracing README: without sensitive data "no failure's text reaches a span" — MCP
// spans get a generic message.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, tool } from '@baton/core';
import type { MCPServer, MCPTool } from '@baton/types';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
import { recordingProcessor } from './recording.js';

const SECRET = 'sk-live-0123456789abcdef';
const REDACTED = 'Tool execution failed. Error details are redacted.';

afterEach(() => setTraceProcessors([]));

function recorded() {
  const recorder = recordingProcessor();
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor]);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return recorder.ended.map((span) => span.json);
  };
}

function failingLookup(errorFunction?: (context: unknown, error: unknown) => string) {
  return tool({
    name: 'lookup',
    description: 'Looks an order up.',
    parameters: z.object({ id: z.string() }),
    ...(errorFunction ? { errorFunction } : {}),
    execute: () => {
      throw new Error(`orders API refused (key ${SECRET})`);
    },
  });
}

async function runWith(lookup: ReturnType<typeof failingLookup>, traceIncludeSensitiveData: boolean) {
  const spans = recorded();
  const model = new ScriptedModel([[functionCall('lookup', { id: 'o1' }, { callId: 'c1' })], [assistantMessage('Sorry, try later.')]]);
  const result = await new Runner({ traceIncludeSensitiveData }).run(new Agent({ name: 'Clerk', model, tools: [lookup] }), 'where is o1?');
  expect(result.finalOutput).toBe('Sorry, try later.');
  const functionSpan = (await spans()).find((span) => span.span_data.type === 'function')!;
  return functionSpan;
}

describe('a tool error answered to the model (the run goes on)', () => {
  it('by the default error function: the span says so, and the error text stays out even with sensitive data', async () => {
    const span = await runWith(failingLookup(), true);
    expect(span.error).toEqual({ message: 'Error running tool (non-fatal)', data: { tool_name: 'lookup', error: REDACTED } });
  });

  it('by the tool’s own error function with sensitive data: the error as the reference writes it (its toString)', async () => {
    const span = await runWith(failingLookup(() => 'The lookup failed.'), true);
    expect(span.error).toEqual({ message: 'Error running tool (non-fatal)', data: { tool_name: 'lookup', error: `Error: orders API refused (key ${SECRET})` } });
  });

  it('by the tool’s own error function without sensitive data: redacted', async () => {
    const span = await runWith(failingLookup(() => 'The lookup failed.'), false);
    expect(span.error).toEqual({ message: 'Error running tool (non-fatal)', data: { tool_name: 'lookup', error: REDACTED } });
    expect(JSON.stringify(span)).not.toContain(SECRET);
  });

  it('a tool that fails the run, with sensitive data: the tool’s own error text, not the run’s ToolCallError', async () => {
    const spans = recorded();
    const thrown = new Error(`orders API refused (key ${SECRET})`);
    const fatal = tool({
      name: 'lookup',
      description: '',
      parameters: z.object({ id: z.string() }),
      errorFunction: null,
      execute: () => {
        throw thrown;
      },
    });
    const model = new ScriptedModel([[functionCall('lookup', { id: 'o1' }, { callId: 'c1' })]]);
    await new Runner({ traceIncludeSensitiveData: true }).run(new Agent({ name: 'Clerk', model, tools: [fatal] }), 'where is o1?').catch(() => undefined);
    const functionSpan = (await spans()).find((span) => span.span_data.type === 'function')!;
    expect(functionSpan.error).toEqual({ message: 'Error running tool', data: { tool_name: 'lookup', error: String(thrown) } });
    // The reference sets a function span's output only when the tool returned (runner/toolExecution.js).
    expect(functionSpan.span_data.input).toBe('{"id":"o1"}');
    expect(functionSpan.span_data.output).toBe('');
  });

  it('a tool that succeeds has no error on its span', async () => {
    const spans = recorded();
    const ok = tool({ name: 'lookup', description: '', parameters: z.object({ id: z.string() }), execute: () => 'shipped' });
    const model = new ScriptedModel([[functionCall('lookup', { id: 'o1' }, { callId: 'c1' })], [assistantMessage('Shipped.')]]);
    await new Runner().run(new Agent({ name: 'Clerk', model, tools: [ok] }), 'where is o1?');
    const functionSpan = (await spans()).find((span) => span.span_data.type === 'function')!;
    expect(functionSpan.error).toBeNull();
    expect(functionSpan.span_data).toMatchObject({ name: 'lookup', output: 'shipped' });
  });
});

/** An in-process MCP server offering `tools`, or failing to list them with `listError`. */
function mcpServer(name: string, tools: string[], options: { listError?: Error; toolFilter?: MCPServer['toolFilter'] } = {}): MCPServer {
  return {
    name,
    cacheToolsList: false,
    ...(options.toolFilter ? { toolFilter: options.toolFilter } : {}),
    connect: async () => {},
    close: async () => {},
    listTools: async () => {
      if (options.listError) throw options.listError;
      return tools.map((tool): MCPTool => ({ name: tool, description: '', inputSchema: { type: 'object', properties: {} } }) as MCPTool);
    },
    callTool: async () => [],
    invalidateToolsCache: async () => {},
  };
}

describe('listing an MCP server’s tools', () => {
  it('is an mcp_tools span with the server and the names offered after the filter, under the agent span', async () => {
    const spans = recorded();
    const server = mcpServer('files', ['read', 'write', 'delete'], { toolFilter: { blockedToolNames: ['delete'] } });
    const model = new ScriptedModel([[assistantMessage('done')]]);
    await new Runner().run(new Agent({ name: 'Archivist', model, mcpServers: [server] }), 'list');
    const all = await spans();
    const listing = all.find((span) => span.span_data.type === 'mcp_tools')!;
    expect(listing.span_data).toEqual({ type: 'mcp_tools', server: 'files', result: ['read', 'write'] });
    expect(listing.error).toBeNull();
    const agent = all.find((span) => span.span_data.type === 'agent')!;
    expect(listing.parent_id).toBe(agent.id);
  });

  it('a call of an MCP tool is a function span that names its server (an object, as the reference records it)', async () => {
    const spans = recorded();
    const server = mcpServer('files', ['read']);
    const model = new ScriptedModel([[functionCall('read', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    await new Runner().run(new Agent({ name: 'Archivist', model, mcpServers: [server] }), 'read it');
    const call = (await spans()).find((span) => span.span_data.type === 'function')!;
    expect(call.span_data).toMatchObject({ name: 'read', mcp_data: { server: 'files' } });
  });

  it('a function tool’s span has no MCP server', async () => {
    const spans = recorded();
    const ok = tool({ name: 'lookup', description: '', parameters: z.object({}), execute: () => 'fine' });
    const model = new ScriptedModel([[functionCall('lookup', {}, { callId: 'c1' })], [assistantMessage('done')]]);
    await new Runner().run(new Agent({ name: 'Clerk', model, tools: [ok] }), 'go');
    const call = (await spans()).find((span) => span.span_data.type === 'function')!;
    expect(call.span_data.mcp_data).toBeUndefined();
  });

  it('that fails, without sensitive data: a generic message, none of the server’s text', async () => {
    const spans = recorded();
    const server = mcpServer('files', [], { listError: new Error(`listing refused (key ${SECRET})`) });
    const model = new ScriptedModel([[assistantMessage('done')]]);
    const outcome = await new Runner({ traceIncludeSensitiveData: false })
      .run(new Agent({ name: 'Archivist', model, mcpServers: [server] }), 'list')
      .then(() => 'ok', (error: unknown) => String(error));
    expect(outcome).toContain(SECRET); // the caller still gets the whole error
    const all = await spans();
    const listing = all.find((span) => span.span_data.type === 'mcp_tools')!;
    expect(listing.error).toEqual({ message: 'Error listing MCP tools', data: { error: 'Error' } });
    expect(JSON.stringify(all)).not.toContain(SECRET);
  });

  it('that fails, with sensitive data: the error’s message', async () => {
    const spans = recorded();
    const server = mcpServer('files', [], { listError: new Error('listing refused') });
    const model = new ScriptedModel([[assistantMessage('done')]]);
    await new Runner({ traceIncludeSensitiveData: true })
      .run(new Agent({ name: 'Archivist', model, mcpServers: [server] }), 'list')
      .catch(() => undefined);
    const listing = (await spans()).find((span) => span.span_data.type === 'mcp_tools')!;
    expect(listing.error.message).toContain('listing refused');
    expect(listing.error.data).toBeUndefined(); // as the reference: the message, and \`data\` only when the error has some
  });
});
