import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '@baton/testing';
import { MCPServerStdio, MCPServerStreamableHttp, MCPServerSSE, type MCPServerOptions } from '../src/index.js';

// The reference MCP servers, installed from the registry as dev dependencies, run with this Node.
const require = createRequire(import.meta.url);
export const everythingEntry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemEntry = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

export function everythingOverStdio(options: Omit<MCPServerOptions, 'name'> & { name?: string } = {}): MCPServerStdio {
  return new MCPServerStdio({ name: 'everything', command: process.execPath, args: [everythingEntry, 'stdio'], stderr: 'ignore', ...options });
}

export function filesystemOver(folder: string, options: Omit<MCPServerOptions, 'name'> & { name?: string } = {}): MCPServerStdio {
  return new MCPServerStdio({ name: 'files', command: process.execPath, args: [filesystemEntry, folder], stderr: 'ignore', ...options });
}

/** The everything server listening over HTTP: Streamable HTTP at `/mcp`, or SSE at `/sse`. */
export async function everythingOverHttp(transport: 'streamableHttp' | 'sse'): Promise<ServerProcess> {
  return startServerProcess({ command: process.execPath, args: [everythingEntry, transport] });
}

export function streamableHttpClient(server: ServerProcess, options: MCPServerOptions = {}): MCPServerStreamableHttp {
  return new MCPServerStreamableHttp({ name: 'everything-http', url: `${server.origin}/mcp`, ...options });
}

export function sseClient(server: ServerProcess, options: MCPServerOptions = {}): MCPServerSSE {
  return new MCPServerSSE({ name: 'everything-sse', url: `${server.origin}/sse`, ...options });
}

export function temporaryFolder(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'baton-mcp-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
