/**
 * An agent with two local MCP servers, both installed from the registry: the filesystem server over
 * stdio (on a temporary folder) and the "everything" server over Streamable HTTP. Writing a file
 * needs a human's approval: the run pauses, its state goes through a string (as it would through a
 * database), and a decision resumes it with new server objects, as another process would. Offline:
 * a scripted model stands in for the LLM.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, RunState, Runner } from '@baton/core';
import { MCPServerStdio, MCPServerStreamableHttp } from '@baton/mcp';
import { ScriptedModel, assistantMessage, functionCall, startServerProcess, type ServerProcess } from '@baton/testing';
import type { Log } from '../guardrails/log.js';

const require = createRequire(import.meta.url);
const filesystemServer = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

export interface McpExampleOutcome {
  toolsOffered: string[];
  pausedOn: string[];
  sum: string;
  fileContent: string;
  finalOutput: unknown;
  serversLeftConnected: boolean;
}

/** The agent, with servers made afresh each time (a resumed run in another process makes its own). */
function assistant(folder: string, http: ServerProcess, model: ScriptedModel) {
  const files = new MCPServerStdio({
    name: 'files',
    command: process.execPath,
    args: [filesystemServer, folder],
    stderr: 'ignore',
    cacheToolsList: true,
    // Reading is fine; writing waits for a human.
    requireApproval: { always: { toolNames: ['write_file'] } },
    toolFilter: { allowedToolNames: ['read_text_file', 'write_file', 'list_directory'] },
  });
  const everything = new MCPServerStreamableHttp({ name: 'everything', url: `${http.origin}/mcp`, toolFilter: { allowedToolNames: ['get-sum', 'echo'] } });
  const agent = new Agent({
    name: 'Assistant',
    instructions: 'Use the tools to answer and to keep notes.',
    model,
    mcpServers: [files, everything],
  });
  return { agent, servers: [files, everything] };
}

export async function mcpServersExample(log: Log): Promise<McpExampleOutcome> {
  const folder = mkdtempSync(join(tmpdir(), 'baton-mcp-example-'));
  const http = await startServerProcess({ command: process.execPath, args: [everythingServer, 'streamableHttp'] });
  try {
    const notes = join(folder, 'notes.txt');
    const model = new ScriptedModel([
      [functionCall('get_sum', { a: 1200, b: 34 }, { callId: 'sum' }), functionCall('write_file', { path: notes, content: 'Total: 1234' }, { callId: 'write' })],
      [assistantMessage('The total is 1234; I wrote it to notes.txt.')],
    ]);
    const runner = new Runner({ tracingDisabled: true });

    // First process: the run connects both servers, calls get_sum, and pauses on write_file.
    const first = assistant(folder, http, model);
    const paused = await runner.run(first.agent, 'Add 1200 and 34, and note the total.');
    const toolsOffered = model.firstCall!.request.tools.map((t) => t.name);
    log(`tools offered: ${toolsOffered.join(', ')}`);
    const pausedOn = paused.interruptions.map((item) => `${item.name} ${item.arguments}`);
    log(`paused for approval: ${pausedOn.join('; ')}`);
    const stored = paused.state.toString();
    log(`state stored (${stored.length} characters); servers still connected: ${first.servers.some((s) => s.connected)}`);

    // "Another process": new server objects, the state read back, a human approves.
    const second = assistant(folder, http, model);
    const state = await RunState.fromString(second.agent, stored);
    state.approve(state.getInterruptions()[0]!, { decidedBy: 'ops@example.com', reason: 'a note is harmless' });
    const result = await runner.run(second.agent, state);
    // get_sum ran before the pause (in the first process); the resumed run does not run it again.
    const sumItem = paused.newItems.find((item) => item.type === 'tool_call_output_item' && item.rawItem.type === 'function_call_result' && item.rawItem.name === 'get_sum');
    const sum = JSON.stringify(sumItem?.type === 'tool_call_output_item' ? sumItem.output : undefined);
    log(`get_sum (before the pause): ${sum}`);
    const fileContent = readFileSync(notes, 'utf8');
    log(`notes.txt: ${fileContent}`);
    log(`answer: ${String(result.finalOutput)}`);
    const serversLeftConnected = [...first.servers, ...second.servers].some((s) => s.connected);
    log(`servers left connected: ${serversLeftConnected}`);
    return { toolsOffered, pausedOn, sum, fileContent, finalOutput: result.finalOutput, serversLeftConnected };
  } finally {
    await http.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
