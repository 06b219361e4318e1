import type { SSEClientTransportOptions } from '@modelcontextprotocol/client';
import type { FetchLike, Transport } from '@modelcontextprotocol/client';
import { ClientMCPServer, type MCPServerOptions, type TransportConnection } from './internal/clientServer.js';
import { checkUrl } from './internal/checkUrl.js';

export interface MCPServerSSEOptions extends MCPServerOptions {
  url: string;
  authProvider?: SSEClientTransportOptions['authProvider'];
  requestInit?: RequestInit;
  eventSourceInit?: SSEClientTransportOptions['eventSourceInit'];
  fetch?: SSEClientTransportOptions['fetch'];
}

/** An MCP server over the older HTTP+SSE transport (servers that have not moved to Streamable HTTP). */
export class MCPServerSSE extends ClientMCPServer {
  readonly url: URL;
  readonly #options: MCPServerSSEOptions;

  constructor(options: MCPServerSSEOptions) {
    const url = checkUrl(options, 'MCPServerSSE');
    super(options, `sse: ${url.origin}${url.pathname}`, 'openai-agents:sse-mcp-client');
    this.url = url;
    this.#options = options;
  }

  protected async createTransport(connection: TransportConnection): Promise<Transport> {
    const { SSEClientTransport } = await import('@modelcontextprotocol/client');
    const { authProvider, requestInit, eventSourceInit, fetch } = this.#options;
    return new SSEClientTransport(this.url, {
      ...(authProvider ? { authProvider } : {}),
      ...(requestInit ? { requestInit } : {}),
      // The event stream is the session here: when it breaks, the session is gone.
      eventSourceInit: { ...eventSourceInit, fetch: connection.fetch((eventSourceInit?.fetch as FetchLike | undefined) ?? fetch, { getStreamIsSession: true }) },
      fetch: connection.fetch(fetch),
    });
  }
}
