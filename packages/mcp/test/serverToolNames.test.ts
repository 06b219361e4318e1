import { describe, expect, it } from 'vitest';
import { Agent, RunContext, Runner, getAllMcpTools, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, resultText } from '@baton/testing';
import { z } from 'zod';
import { everythingOverStdio } from './servers.js';

const runner = new Runner({ tracingDisabled: true });

describe('MCP tool names that carry their server (includeServerInToolNames)', () => {
  it('lets two servers with the same tools sit side by side, and calls each under the tool’s own name', async () => {
    const left = everythingOverStdio({ name: 'left box', clientSessionTimeoutSeconds: 30 });
    const right = everythingOverStdio({ name: 'right', clientSessionTimeoutSeconds: 30 });
    await left.connect();
    await right.connect();
    try {
      // Without prefixes the two servers' tools clash.
      await expect(getAllMcpTools({ mcpServers: [left, right] })).rejects.toThrow(/Duplicate tool names found across MCP servers/);

      const model = new ScriptedModel([
        [functionCall('mcp_left_box__get_sum', { a: 2, b: 3 }, { callId: 'c1' }), functionCall('mcp_right__echo', { message: 'hi' }, { callId: 'c2' })],
        [assistantMessage('done')],
      ]);
      const agent = new Agent({ name: 'A', model, mcpServers: [left, right], mcpConfig: { includeServerInToolNames: true } });
      const result = await runner.run(agent, 'go');
      expect(result.finalOutput).toBe('done');
      const names = model.firstCall!.request.tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['mcp_left_box__echo', 'mcp_left_box__get_sum', 'mcp_right__echo', 'mcp_right__get_sum']));
      expect(names.every((name) => name.length <= 64)).toBe(true);
      expect(resultText(model.lastCall, 'c1')).toBe('The sum of 2 and 3 is 5.');
      expect(resultText(model.lastCall, 'c2')).toContain('Echo: hi');
    } finally {
      await Promise.all([left.close(), right.close()]);
    }
  });

  it('cuts a long name to 64 characters with a stable hash, and steps around names the agent already uses', async () => {
    const server = everythingOverStdio({ name: 'a-server-with-a-name-long-enough-to-push-every-tool-name-past-the-limit', clientSessionTimeoutSeconds: 30 });
    const short = everythingOverStdio({ name: 'box', clientSessionTimeoutSeconds: 30 });
    await server.connect();
    await short.connect();
    try {
      const first = await getAllMcpTools({ mcpServers: [server], includeServerInToolNames: true });
      const again = await getAllMcpTools({ mcpServers: [server], includeServerInToolNames: true });
      const echo = first.find((t) => t.name.startsWith('mcp_a_server') && t.mcp?.toolName === 'echo')!;
      expect(echo.name).toMatch(/^mcp_a_server_with_a_name_long_enough\w*_[0-9a-f]{8}$/);
      expect(echo.name).toHaveLength(64);
      expect(again.map((t) => t.name)).toEqual(first.map((t) => t.name));

      const own = tool({ name: 'mcp_box__echo', description: 'Mine.', parameters: z.object({}), execute: () => 'mine' });
      const agent = new Agent({ name: 'A', tools: [own], mcpServers: [short], mcpConfig: { includeServerInToolNames: true } });
      const offered = (await agent.getMcpTools(new RunContext())).map((t) => t.name);
      expect(offered).not.toContain('mcp_box__echo');
      expect(offered).toContainEqual(expect.stringMatching(/^mcp_box__echo_[0-9a-f]{8}$/));
    } finally {
      await Promise.all([server.close(), short.close()]);
    }
  });
});
