import type { StreamableHTTPClientTransport, StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { ClientMCPServer, type MCPServerOptions, type TransportConnection } from './internal/clientServer.js';
import { checkUrl } from './internal/checkUrl.js';

export interface MCPServerStreamableHttpOptions extends MCPServerOptions {
  url: string;
  authProvider?: StreamableHTTPClientTransportOptions['authProvider'];
  /** Headers and other `fetch` options sent with every request. */
  requestInit?: RequestInit;
  fetch?: StreamableHTTPClientTransportOptions['fetch'];
  reconnectionOptions?: StreamableHTTPClientTransportOptions['reconnectionOptions'];
  /** Resume an existing session. */
  sessionId?: string;
}

/**
 * An MCP server over Streamable HTTP. `close()` ends the session on the server too (`DELETE`),
 * waiting at most `closeTimeoutMs` for it.
 */
export class MCPServerStreamableHttp extends ClientMCPServer {
  readonly url: URL;
  readonly #options: MCPServerStreamableHttpOptions;
  #transport: StreamableHTTPClientTransport | undefined;

  constructor(options: MCPServerStreamableHttpOptions) {
    const url = checkUrl(options, 'MCPServerStreamableHttp');
    super(options, `streamable-http: ${url.origin}${url.pathname}`, 'openai-agents:streamable-http-mcp-client');
    this.url = url;
    this.#options = options;
  }

  /** The session id the server gave (for `sessionId` on another instance), while connected. */
  get sessionId(): string | undefined {
    return this.connected ? this.#transport?.sessionId : undefined;
  }

  protected async createTransport(connection: TransportConnection): Promise<Transport> {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const { authProvider, requestInit, fetch, reconnectionOptions, sessionId } = this.#options;
    this.#transport = new StreamableHTTPClientTransport(this.url, {
      ...(authProvider ? { authProvider } : {}),
      ...(requestInit ? { requestInit } : {}),
      fetch: connection.fetch(fetch),
      ...(reconnectionOptions ? { reconnectionOptions } : {}),
      ...(sessionId ? { sessionId } : {}),
    });
    return this.#transport;
  }

  /** Tells the server the session is over, so it frees it (a server that is gone is fine). */
  protected override async endSession(transport: Transport): Promise<void> {
    const http = transport as StreamableHTTPClientTransport;
    if (http.sessionId) await http.terminateSession().catch(() => undefined);
  }
}
