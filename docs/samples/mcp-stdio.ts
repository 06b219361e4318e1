import { Agent, Runner } from '@baton/core';
import { MCPServerStdio } from '@baton/mcp';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';

// The reference "everything" server, installed above, started with npx (any MCP server works the
// same way; npx finds it in node_modules, no download). A busy machine can take more than the
// default 5 s to start it and open the session.
const server = new MCPServerStdio({
  name: 'everything',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'],
  stderr: 'ignore',
  cacheToolsList: true,
  clientSessionTimeoutSeconds: 60,
});

// A scripted model stands in for a real one: it calls the server's `get-sum` tool (offered as `get_sum`).
const model = new ScriptedModel([[functionCall('get_sum', { a: 20, b: 22 })], [assistantMessage('20 + 22 = 42')]]);
const agent = new Agent({ name: 'Calculator', model, mcpServers: [server] });

// The run connects the server (it was not connected) and closes it, process included, when it ends.
const result = await new Runner().run(agent, 'What is 20 + 22?');
console.log(result.finalOutput); // 20 + 22 = 42
console.log(server.connected); // false
