// The mcp README: `toolFilter` is `{ allowedToolNames, blockedToolNames }` or a function "deciding
// per run and agent" — it receives the run's context, the agent and the server's name, and what it
// decides is what the model is offered. A loop that stopped passing the run context to the filter
// (every tool offered in every run) passes any test that calls `agent.getAllTools()` outside a run,
// so these read the tools from the request the model received, over in-process MCP servers.
import { describe, expect, it } from 'vitest';
import type { MCPServer, MCPTool } from '@baton/types';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, Runner } from '../src/index.js';

interface Caller {
  role: 'admin' | 'guest';
}

const runner = new Runner({ tracingDisabled: true });

function server(name: string, tools: string[], options: Partial<Pick<MCPServer, 'toolFilter' | 'cacheToolsList'>> = {}): MCPServer & { listings: number } {
  const made = {
    name,
    cacheToolsList: options.cacheToolsList ?? false,
    ...(options.toolFilter ? { toolFilter: options.toolFilter } : {}),
    listings: 0,
    connect: async () => {},
    close: async () => {},
    listTools: async () => {
      made.listings++;
      return tools.map((tool): MCPTool => ({ name: tool, description: '', inputSchema: { type: 'object', properties: {} } }) as MCPTool);
    },
    callTool: async () => [],
    invalidateToolsCache: async () => {},
  };
  return made;
}

async function offered(agentName: string, role: Caller['role'], servers: MCPServer[]): Promise<string[]> {
  const model = new ScriptedModel([[assistantMessage('ok')]]);
  await runner.run(new Agent<Caller>({ name: agentName, model, mcpServers: servers }), 'hi', { context: { role } });
  return model.firstCall!.request.tools.map((tool) => tool.name).sort();
}

describe('a callable toolFilter decides per run and agent', () => {
  const seen: Array<{ role: unknown; agent: string; serverName: string; tool: string }> = [];
  // Guests get `search`; admins get `search` and `drop_table`, except the agent named "Reader".
  const filter: MCPServer['toolFilter'] = ({ runContext, agent, serverName }, tool) => {
    const role = (runContext.context as Caller | undefined)?.role;
    seen.push({ role, agent: agent.name, serverName, tool: tool.name });
    if (tool.name === 'search') return true;
    return role === 'admin' && agent.name !== 'Reader';
  };

  it('offers the model what the filter decides from the run’s context, run after run on one server', async () => {
    const db = server('db', ['search', 'drop_table'], { toolFilter: filter });
    expect(await offered('Assistant', 'guest', [db])).toEqual(['search']);
    expect(await offered('Assistant', 'admin', [db])).toEqual(['drop_table', 'search']);
    expect(await offered('Assistant', 'guest', [db])).toEqual(['search']); // the admin's decision is not reused
  });

  it('decides per agent, and receives the run’s context, the agent and the server’s name', async () => {
    seen.length = 0;
    const db = server('db', ['search', 'drop_table'], { toolFilter: filter });
    expect(await offered('Reader', 'admin', [db])).toEqual(['search']);
    expect(seen.map((call) => call.tool).sort()).toEqual(['drop_table', 'search']);
    for (const call of seen) expect(call).toMatchObject({ role: 'admin', agent: 'Reader', serverName: 'db' });
  });

  it('with cacheToolsList: the listing is kept, the decision is still made per run and agent', async () => {
    const db = server('db-cached', ['search', 'drop_table'], { toolFilter: filter, cacheToolsList: true });
    expect(await offered('Assistant', 'admin', [db])).toEqual(['drop_table', 'search']);
    expect(await offered('Assistant', 'guest', [db])).toEqual(['search']);
    expect(await offered('Reader', 'admin', [db])).toEqual(['search']);
    expect(await offered('Assistant', 'admin', [db])).toEqual(['drop_table', 'search']);
  });

  it('an async filter counts by what it resolves to', async () => {
    const db = server('db-async', ['search', 'drop_table'], { toolFilter: async (_context, tool) => tool.name === 'search' });
    expect(await offered('Assistant', 'admin', [db])).toEqual(['search']);
  });
});

describe('a static toolFilter', () => {
  it('allowedToolNames keeps only those; blockedToolNames removes those, also from the allowed', async () => {
    expect(await offered('A', 'guest', [server('s1', ['a', 'b', 'c'], { toolFilter: { allowedToolNames: ['a', 'b'] } })])).toEqual(['a', 'b']);
    expect(await offered('A', 'guest', [server('s2', ['a', 'b', 'c'], { toolFilter: { blockedToolNames: ['b'] } })])).toEqual(['a', 'c']);
    expect(await offered('A', 'guest', [server('s3', ['a', 'b', 'c'], { toolFilter: { allowedToolNames: ['a', 'b'], blockedToolNames: ['b'] } })])).toEqual(['a']);
    expect(await offered('A', 'guest', [server('s4', ['a', 'b'], { toolFilter: { allowedToolNames: [] } })])).toEqual(['a', 'b']); // an empty allow-list restricts nothing
  });

  it('no filter offers every tool', async () => {
    expect(await offered('A', 'guest', [server('s5', ['a', 'b'])])).toEqual(['a', 'b']);
  });
});
