import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { join } from 'node:path';
import { Agent, Runner, ToolCallError, UserError } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, isProcessAlive, modelResponder, resultText } from '@baton/testing';
import { MCPServerStdio } from '../src/index.js';
import { everythingOverStdio } from './servers.js';

const runner = new Runner({ tracingDisabled: true });
/** What the model is told when a call fails and no errorFunction says otherwise (the reference's text). */
const FIXED_TEXT = 'An error occurred while running the tool. Please try again.';
let warnings: MockInstance<typeof console.warn>;
beforeEach(() => {
  warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => warnings.mockRestore());
const warned = () => warnings.mock.calls.map((call) => String(call[0])).join('\n');
const longOperation = (callId: string) => functionCall('trigger_long_running_operation', { duration: 20, steps: 20 }, { callId });

function protocolErrorServer(options: { errorFunction?: null } = {}) {
  return new MCPServerStdio({ name: 'broken', command: process.execPath, args: [join(import.meta.dirname, 'fixtures', 'rawServer.mjs')], ...options });
}

describe('MCP servers that fail', () => {
  it('a server that cannot start fails the run with a UserError naming it', async () => {
    const server = new MCPServerStdio({ name: 'missing', command: '/nonexistent/mcp-server', stderr: 'ignore' });
    const model = new ScriptedModel([[assistantMessage('never')]]);
    const failure = runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'go');
    await expect(failure).rejects.toThrow(UserError);
    await expect(failure).rejects.toThrow(/MCP server "missing" could not list its tools: MCP server "missing" failed to connect: .*ENOENT/);
    expect(model.calls).toHaveLength(0);
    expect(server.connected).toBe(false);
  });

  it('a server killed mid-call: the model is told the call failed, the log says which server and tool and why, and the run goes on', async () => {
    const server = everythingOverStdio();
    let pid = 0;
    const model = new ScriptedModel([[longOperation('c1')], [assistantMessage('sorry')]]);
    const agent = new Agent({ name: 'A', model, mcpServers: [server] });
    agent.on('agent_tool_start', () => {
      pid = server.pid!;
      setTimeout(() => process.kill(pid, 'SIGKILL'), 200);
    });
    const result = await runner.run(agent, 'go');
    expect(result.finalOutput).toBe('sorry');
    expect(resultText(model.lastCall, 'c1')).toBe(FIXED_TEXT);
    expect(warned()).toMatch(/MCP server "everything" failed to run tool "trigger-long-running-operation": .*[Cc]onnection closed/);
    expect(isProcessAlive(pid)).toBe(false);
    // The next turn connected the server again: its tools were still offered.
    expect(model.lastCall!.request.tools.map((t) => t.name)).toContain('echo');
    expect(server.connected).toBe(false);
  });

  it('with errorFunction: null the same failure fails the run with a ToolCallError naming both', async () => {
    const server = everythingOverStdio({ errorFunction: null });
    const model = new ScriptedModel([[longOperation('c1')], [assistantMessage('never')]]);
    const agent = new Agent({ name: 'A', model, mcpServers: [server] });
    agent.on('agent_tool_start', () => {
      const pid = server.pid!;
      setTimeout(() => process.kill(pid, 'SIGKILL'), 200);
    });
    const failure = runner.run(agent, 'go');
    await expect(failure).rejects.toThrow(ToolCallError);
    await expect(failure).rejects.toThrow(/MCP server "everything" failed to run tool "trigger-long-running-operation"/);
  });

  it('a call past the timeout is a tool error (logged naming the server and the tool), and the run does not wait for it', async () => {
    const server = everythingOverStdio({ timeout: 300 });
    const model = new ScriptedModel([[longOperation('c1')], [assistantMessage('too slow')]]);
    const started = Date.now();
    const result = await runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'go');
    expect(result.finalOutput).toBe('too slow');
    expect(resultText(model.lastCall, 'c1')).toBe(FIXED_TEXT);
    expect(warned()).toMatch(/MCP server "everything" failed to run tool "trigger-long-running-operation": .*timed out/i);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a protocol error answering the call: the model gets the fixed text, never the server’s error; the log gets the detail', async () => {
    const server = protocolErrorServer();
    const model = new ScriptedModel([[functionCall('lookup', { q: 'x' }, { callId: 'c1' })], [assistantMessage('ok')]]);
    const result = await runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'go');
    expect(resultText(model.lastCall, 'c1')).toBe(FIXED_TEXT);
    expect(JSON.stringify(result.history)).not.toContain('database offline');
    expect(warned()).toContain('MCP server "broken" failed to run tool "lookup": database offline');
  });

  it('a custom errorFunction writes the model’s text', async () => {
    const server = new MCPServerStdio({
      name: 'broken',
      command: process.execPath,
      args: [join(import.meta.dirname, 'fixtures', 'rawServer.mjs')],
      errorFunction: ({ error }) => `lookup is down (${(error as Error).message.includes('database offline') ? 'database' : 'unknown'})`,
    });
    const model = new ScriptedModel([[functionCall('lookup', { q: 'x' }, { callId: 'c1' })], [assistantMessage('ok')]]);
    await runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'go');
    expect(resultText(model.lastCall, 'c1')).toBe('lookup is down (database)');
  });

  it('cancelling a streamed run mid-call ends the call and closes the server the run opened', async () => {
    const server = everythingOverStdio();
    let pid = 0;
    const model = new ScriptedModel([[longOperation('c1')], modelResponder(() => [assistantMessage('never')])]);
    const agent = new Agent({ name: 'A', model, mcpServers: [server] });
    const result = await runner.run(agent, 'go', { stream: true });
    agent.on('agent_tool_start', () => {
      pid = server.pid!;
      setTimeout(() => result.cancel(), 200);
    });
    for await (const _ of result) void _;
    await result.completed.catch(() => undefined);
    expect(pid).toBeGreaterThan(0);
    expect(server.connected).toBe(false);
    expect(isProcessAlive(pid)).toBe(false);
  });
});
