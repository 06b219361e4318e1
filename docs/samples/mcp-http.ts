import { Agent } from '@baton/core';
import { MCPServerStreamableHttp, connectMcpServers } from '@baton/mcp';

// A remote server over Streamable HTTP: only two of its tools, and writes need a human's approval.
const files = new MCPServerStreamableHttp({
  name: 'files',
  url: 'http://localhost:8000/mcp',
  toolFilter: { allowedToolNames: ['read_file', 'write_file'] },
  requireApproval: { always: { toolNames: ['write_file'] } },
  timeout: 10_000,
});

// Connect once for many runs (a run connects an unconnected server itself, and closes it when it ends).
await using servers = await connectMcpServers([files]);
console.log(servers.active.map((server) => server.name), servers.failed.length);

export const agent = new Agent({ name: 'Editor', model: 'gpt-4.1', mcpServers: servers.active });
