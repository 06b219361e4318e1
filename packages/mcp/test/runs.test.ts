import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, RunState, Runner, type ToolInputGuardrail } from '@baton/core';
import { ScriptedModel, assistantMessage, deferred, functionCall, inputOf, modelResponder, outputText, isProcessAlive, resultText, toolResultsOf } from '@baton/testing';
import { everythingOverStdio, filesystemOver, temporaryFolder } from './servers.js';

const runner = new Runner({ tracingDisabled: true });

describe('an agent with MCP servers', () => {
  it('offers the servers’ tools before its own and sends the call’s result to the model', async () => {
    const server = everythingOverStdio();
    await server.connect();
    try {
      const model = new ScriptedModel([[functionCall('echo', { message: 'hi' }, { callId: 'c1' })], [assistantMessage('done')]]);
      const result = await runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'go');
      expect(result.finalOutput).toBe('done');
      expect(model.firstCall!.request.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get_sum']));
      expect(toolResultsOf(model.lastCall)[0]!.output).toEqual([{ type: 'input_text', text: 'Echo: hi' }]);
      // A server the caller connected stays connected.
      expect(server.connected).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('connects a server that is not connected, and closes it (its process too) when the run ends', async () => {
    const server = everythingOverStdio();
    let pid: number | undefined;
    const model = new ScriptedModel([
      [functionCall('get_sum', { a: 2, b: 2 }, { callId: 'c1' })],
      modelResponder(async () => {
        pid = server.pid;
        return [assistantMessage('4')];
      }),
    ]);
    const result = await runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'add');
    expect(result.finalOutput).toBe('4');
    expect(resultText(model.lastCall, 'c1')).toBe('The sum of 2 and 2 is 4.');
    expect(pid).toEqual(expect.any(Number));
    expect(server.connected).toBe(false);
    expect(isProcessAlive(pid!)).toBe(false);
  });

  it('concurrent runs sharing one server object share the connection; the last to end closes it', async () => {
    const server = everythingOverStdio();
    const pids = new Set<number>();
    // A run that calls echo, waits at its gate inside the next model call, then calls echo again.
    const gatedRun = (name: string) => {
      const gate = deferred<void>();
      const waiting = deferred<void>();
      const model = new ScriptedModel([
        [functionCall('echo', { message: `${name} 1` }, { callId: `${name}1` })],
        modelResponder(async () => {
          pids.add(server.pid!);
          waiting.resolve();
          await gate.promise;
          return [functionCall('echo', { message: `${name} 2` }, { callId: `${name}2` })];
        }),
        [assistantMessage(`${name} done`)],
      ]);
      const result = runner.run(new Agent({ name, model, mcpServers: [server] }), 'go');
      return { model, result, gate, waiting };
    };
    // The first run connects the server; the second joins that connection.
    const first = gatedRun('first');
    await first.waiting.promise;
    const second = gatedRun('second');
    await second.waiting.promise;
    // The run that opened the connection ends first: the other still needs the server.
    first.gate.resolve();
    expect((await first.result).finalOutput).toBe('first done');
    expect(server.connected).toBe(true);
    second.gate.resolve();
    expect((await second.result).finalOutput).toBe('second done');
    expect(resultText(second.model.lastCall, 'second2')).toBe('Echo: second 2');
    expect(pids.size).toBe(1);
    expect(server.connected).toBe(false);
    expect(isProcessAlive([...pids][0]!)).toBe(false);
  });

  it('sends image content as an input image and structured content as JSON', async () => {
    const server = everythingOverStdio({ useStructuredContent: true });
    const model = new ScriptedModel([
      [functionCall('get_tiny_image', {}, { callId: 'img' }), functionCall('get_structured_content', { location: 'Chicago' }, { callId: 'weather' })],
      [assistantMessage('seen')],
    ]);
    await runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'look');
    const [image, weather] = toolResultsOf(model.lastCall);
    expect(image!.output).toEqual([
      { type: 'input_text', text: expect.any(String) },
      { type: 'input_image', image: expect.stringMatching(/^data:image\/png;base64,iVBOR/) },
      { type: 'input_text', text: expect.any(String) },
    ]);
    expect(JSON.parse(outputText(weather))).toEqual(expect.objectContaining({ conditions: expect.any(String) }));
  });

  it('runs the server’s tool guardrails on every call of its tools', async () => {
    const noSecrets: ToolInputGuardrail = {
      name: 'no_secrets',
      run: async ({ toolCall }: { toolCall: { arguments: string } }) =>
        toolCall.arguments.includes('password') ? { tripwireTriggered: false, behavior: { type: 'rejectContent', message: 'No secrets.' } } : { tripwireTriggered: false, behavior: { type: 'allow' } },
    } as never;
    const server = everythingOverStdio({ toolInputGuardrails: [noSecrets] });
    const model = new ScriptedModel([
      [functionCall('echo', { message: 'my password' }, { callId: 'c1' }), functionCall('echo', { message: 'fine' }, { callId: 'c2' })],
      [assistantMessage('ok')],
    ]);
    await runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'go');
    expect(resultText(model.lastCall, 'c1')).toBe('No secrets.');
    expect(resultText(model.lastCall, 'c2')).toBe('Echo: fine');
  });

  it('streams the call’s events like a function tool’s', async () => {
    const server = everythingOverStdio();
    const model = new ScriptedModel([[functionCall('echo', { message: 'streamed' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const result = await runner.run(new Agent({ name: 'A', model, mcpServers: [server] }), 'go', { stream: true });
    const names: string[] = [];
    for await (const event of result) if (event.type === 'run_item_stream_event') names.push(`${event.name}:${event.item.type}`);
    await result.completed;
    expect(names).toEqual(['tool_called:tool_call_item', 'tool_output:tool_call_output_item', 'message_output_created:message_output_item']);
    expect(server.connected).toBe(false);
  });

  it('works inside an agent used as a tool', async () => {
    const server = everythingOverStdio();
    const innerModel = new ScriptedModel([[functionCall('get_sum', { a: 20, b: 22 }, { callId: 'inner' })], [assistantMessage('42')]]);
    const inner = new Agent({ name: 'Calculator', model: innerModel, mcpServers: [server] });
    const model = new ScriptedModel([[functionCall('calculate', { input: '20+22' }, { callId: 'outer' })], [assistantMessage('it is 42')]]);
    const outer = new Agent({ name: 'Outer', model, tools: [inner.asTool({ toolName: 'calculate', toolDescription: 'Adds.' })] });
    const result = await runner.run(outer, 'what is 20+22?');
    expect(result.finalOutput).toBe('it is 42');
    expect(resultText(innerModel.lastCall, 'inner')).toBe('The sum of 20 and 22 is 42.');
    expect(resultText(model.lastCall, 'outer')).toBe('42');
    expect(server.connected).toBe(false);
  });

  it('a tool name an MCP server shares with a function tool is a UserError naming both', async () => {
    const server = everythingOverStdio();
    const { tool } = await import('@baton/core');
    const echo = tool({ name: 'echo', description: 'mine', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, execute: () => 'x' });
    const model = new ScriptedModel([[assistantMessage('never')]]);
    await expect(runner.run(new Agent({ name: 'A', model, tools: [echo], mcpServers: [server] }), 'go')).rejects.toThrow(
      /"echo" \(MCP server "everything"\) is used by more than one tool/,
    );
    expect(server.connected).toBe(false);
  });
});

describe('approvals of MCP tools', () => {
  it('pauses, survives serialization, and the approved call runs once when another process resumes', async () => {
    const folder = temporaryFolder();
    try {
      const target = join(folder.path, 'todo.txt');
      const server = filesystemOver(folder.path, { requireApproval: { always: { toolNames: ['write_file'] } } });
      const model = new ScriptedModel([[functionCall('write_file', { path: target, content: 'call mom' }, { callId: 'w1' })]]);
      const agent = new Agent({ name: 'Writer', model, mcpServers: [server] });
      const paused = await runner.run(agent, 'write it down');
      expect(paused.interruptions.map((i) => [i.name, i.callId])).toEqual([['write_file', 'w1']]);
      expect(existsSync(target)).toBe(false);
      expect(server.connected).toBe(false);
      const stateFile = join(folder.path, 'state.json');
      writeFileSync(stateFile, paused.state.toString());

      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, [join(import.meta.dirname, 'fixtures', 'resumeApproval.mjs'), stateFile, folder.path], { timeout: 30_000 }, (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
        ),
      );
      const report = JSON.parse(out) as { finalOutput: string; results: string[]; serverStillConnected: boolean };
      expect(report.finalOutput).toBe('written');
      expect(report.results).toEqual([expect.stringContaining('Successfully wrote')]);
      expect(report.serverStillConnected).toBe(false);
      expect(readFileSync(target, 'utf8')).toBe('call mom');
    } finally {
      folder.remove();
    }
  });

  it('a rejected call never reaches the server', async () => {
    const folder = temporaryFolder();
    try {
      const target = join(folder.path, 'todo.txt');
      const server = filesystemOver(folder.path, { requireApproval: (context) => context.toolName === 'write_file' });
      const model = new ScriptedModel([[functionCall('write_file', { path: target, content: 'x' }, { callId: 'w1' })], [assistantMessage('not written')]]);
      const agent = new Agent({ name: 'Writer', model, mcpServers: [server] });
      const paused = await runner.run(agent, 'write');
      const state = await RunState.fromString(agent, paused.state.toString());
      state.reject(state.getInterruptions()[0]!);
      const result = await runner.run(agent, state);
      expect(result.finalOutput).toBe('not written');
      expect(existsSync(target)).toBe(false);
      expect(inputOf(model.lastCall).some((item) => item.type === 'function_call_result' && item.callId === 'w1')).toBe(true);
    } finally {
      folder.remove();
    }
  });
});
