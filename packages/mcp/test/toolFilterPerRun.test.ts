// The README promises a callable `toolFilter` "deciding per run and agent": the function receives
// the run's context and the agent, and what it decides is what the model is offered. The expected
// tools below follow from the filter and the README alone; they are read from the request the
// model received, not from `agent.getAllTools()` outside a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, Runner } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import type { MCPServerStdio } from '../src/index.js';
import { everythingOverStdio } from './servers.js';

const runner = new Runner({ tracingDisabled: true });

interface Caller {
  role: 'admin' | 'guest';
}

describe('a callable toolFilter', () => {
  let server: MCPServerStdio;
  const seen: Array<{ role: unknown; agent: string; serverName: string; tool: string }> = [];

  beforeAll(async () => {
    server = everythingOverStdio({
      // Guests get `echo` only; admins get `echo` and `get-sum` (offered to the model as `get_sum`); the agent named "Echoer" never gets `get-sum`.
      toolFilter: ({ runContext, agent, serverName }, tool) => {
        const role = (runContext.context as Caller | undefined)?.role;
        seen.push({ role, agent: agent.name, serverName, tool: tool.name });
        if (tool.name === 'echo') return true;
        if (tool.name === 'get-sum') return role === 'admin' && agent.name !== 'Echoer';
        return false;
      },
    });
    await server.connect();
  });
  afterAll(async () => {
    await server.close();
  });

  const offered = async (agentName: string, role: Caller['role']) => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await runner.run(new Agent<Caller>({ name: agentName, model, mcpServers: [server] }), 'hi', { context: { role } });
    return model.firstCall!.request.tools.map((t) => t.name).sort();
  };

  it('offers the model what the filter decides from the run’s context', async () => {
    expect(await offered('Assistant', 'guest')).toEqual(['echo']);
    expect(await offered('Assistant', 'admin')).toEqual(['echo', 'get_sum']);
    // Same server object, a guest again: the admin's decision is not reused.
    expect(await offered('Assistant', 'guest')).toEqual(['echo']);
  });

  it('decides per agent too, and receives the run’s context, the agent and the server’s name', async () => {
    seen.length = 0;
    expect(await offered('Echoer', 'admin')).toEqual(['echo']);
    expect(seen.length).toBeGreaterThan(0);
    for (const call of seen) expect(call).toMatchObject({ role: 'admin', agent: 'Echoer', serverName: 'everything' });
  });

  it('with cacheToolsList, still decides per agent and per run', async () => {
    const cached = everythingOverStdio({
      name: 'everything-cached',
      cacheToolsList: true,
      toolFilter: ({ runContext, agent }, tool) =>
        tool.name === 'echo' || (tool.name === 'get-sum' && (runContext.context as Caller).role === 'admin' && agent.name !== 'Echoer'),
    });
    await cached.connect();
    try {
      const offeredBy = async (agentName: string, role: Caller['role']) => {
        const model = new ScriptedModel([[assistantMessage('ok')]]);
        await runner.run(new Agent<Caller>({ name: agentName, model, mcpServers: [cached] }), 'hi', { context: { role } });
        return model.firstCall!.request.tools.map((t) => t.name).sort();
      };
      expect(await offeredBy('Assistant', 'admin')).toEqual(['echo', 'get_sum']);
      expect(await offeredBy('Echoer', 'admin')).toEqual(['echo']);
      expect(await offeredBy('Assistant', 'guest')).toEqual(['echo']);
    } finally {
      await cached.close();
    }
  });
});
