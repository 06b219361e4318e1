/** The MCP example, offline. `pnpm --filter @baton/examples mcp` */
import { consoleLog } from '../guardrails/log.js';
import { mcpServersExample } from './mcpServers.js';

consoleLog('== An agent with MCP servers over stdio and Streamable HTTP, and an approval');
await mcpServersExample(consoleLog);
