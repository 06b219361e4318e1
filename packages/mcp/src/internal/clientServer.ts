import type { Client } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import type { RequestOptions } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { getLogger, invalidateServerToolsCache, type Logger } from '@baton/core';
import {
  UserError,
  type CallToolResult,
  type CallToolResultContent,
  type MCPCallToolOptions,
  type MCPServer,
  type MCPTool,
  type MCPToolApprovalPolicy,
  type MCPToolCustomDataExtractor,
  type MCPToolErrorFunction,
  type MCPToolFilterCallable,
  type MCPToolFilterStatic,
  type MCPToolMetaResolver,
  type ToolInputGuardrail,
  type ToolOutputGuardrail,
} from '@baton/types';
import { checkApprovalPolicy, checkPositiveInteger } from './checkOptions.js';
import { withDeadline } from './deadline.js';
import { guardFetch, type FetchGuardOptions } from './guardedFetch.js';

/** What every server takes, whatever its transport (the reference's names). */
export interface MCPServerOptions {
  /** Shown in errors, traces and logs; defaults to the transport and its command or URL. */
  name?: string;
  /** Keep the first listing until `invalidateToolsCache()`. Defaults to `false`. */
  cacheToolsList?: boolean;
  /** Timeout of connecting (as a whole) and of listing, in seconds. Defaults to 5. */
  clientSessionTimeoutSeconds?: number;
  /** Timeout of one tool call, in milliseconds. Defaults to the MCP SDK's 60 000. */
  timeout?: number;
  /**
   * How long `close()` waits for the server to end the session (the Streamable HTTP `DELETE`, a
   * stdio process exiting) before it cuts the connection (kills the process), in milliseconds.
   * Defaults to 5 000.
   */
  closeTimeoutMs?: number;
  /**
   * The largest answer read from the server, in bytes (over HTTP a JSON body or one event of a
   * stream, over stdio one line): past it the call fails with an error saying so, and nothing more
   * of it is read. `null` lifts the limit. Defaults to 32 MiB.
   */
  maxResponseBytes?: number | null;
  /** Pages one `listTools()` may read (a server that keeps returning cursors is an error past it). Defaults to 64. */
  maxListPages?: number;
  toolFilter?: MCPToolFilterCallable<any> | MCPToolFilterStatic;
  toolMetaResolver?: MCPToolMetaResolver<any>;
  useStructuredContent?: boolean;
  errorFunction?: MCPToolErrorFunction | null;
  /** Attaches data of your own to each output item of this server's tools (`RunToolCallOutputItem.customData`), from the whole tool result. */
  customDataExtractor?: MCPToolCustomDataExtractor<any>;
  toolInputGuardrails?: ToolInputGuardrail<any>[];
  toolOutputGuardrails?: ToolOutputGuardrail<any>[];
  /** Baton: calls that wait for a human approval (`'always'`, `'never'`, by tool name, or a function). */
  requireApproval?: MCPToolApprovalPolicy<any>;
  logger?: Logger;
}

const DEFAULT_MAX_LIST_PAGES = 64;
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** The MCP SDK's `DEFAULT_REQUEST_TIMEOUT_MSEC` (not imported: the SDK loads on the first connect). */
const DEFAULT_REQUEST_TIMEOUT_MSEC = 60_000;

/**
 * An MCP server reached through the official SDK's `Client`. Subclasses say how to make the
 * transport. A connection that drops (a server process that exits) fails its pending calls at once
 * and leaves the server disconnected; `connect()` again, or let a run do it.
 */
export abstract class ClientMCPServer implements MCPServer {
  readonly cacheToolsList: boolean;
  readonly clientSessionTimeoutSeconds: number;
  readonly timeout: number;
  readonly maxListPages: number;
  readonly closeTimeoutMs: number;
  readonly maxResponseBytes: number | null;
  toolFilter?: MCPToolFilterCallable<any> | MCPToolFilterStatic;
  toolMetaResolver?: MCPToolMetaResolver<any>;
  useStructuredContent?: boolean;
  errorFunction?: MCPToolErrorFunction | null;
  customDataExtractor?: MCPToolCustomDataExtractor<any>;
  toolInputGuardrails?: ToolInputGuardrail<any>[];
  toolOutputGuardrails?: ToolOutputGuardrail<any>[];
  requireApproval?: MCPToolApprovalPolicy<any>;
  protected readonly logger: Logger;
  readonly #name: string;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #connecting: Promise<void> | undefined;
  #listed: MCPTool[] | undefined;
  /** Why a connection was lost, when this side noticed it (the SDK only says "Connection closed"). */
  readonly #lost = new WeakMap<Client, string>();

  /**
   * `loggerName` is the namespace of the default logger, the reference's for the transport, so the
   * same `DEBUG=...` shows the same server's debug log.
   */
  constructor(options: MCPServerOptions, defaultName: string, loggerName: string) {
    const label = `MCP server "${options.name ?? defaultName}"`;
    this.#name = options.name ?? defaultName;
    this.cacheToolsList = options.cacheToolsList ?? false;
    this.clientSessionTimeoutSeconds = checkPositive(options.clientSessionTimeoutSeconds ?? 5, `${label}: \`clientSessionTimeoutSeconds\``);
    this.timeout = checkPositive(options.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC, `${label}: \`timeout\``);
    this.maxListPages = checkPositiveInteger(options.maxListPages ?? DEFAULT_MAX_LIST_PAGES, `${label}: \`maxListPages\``);
    this.closeTimeoutMs = checkPositive(options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS, `${label}: \`closeTimeoutMs\``);
    this.maxResponseBytes =
      options.maxResponseBytes === null ? null : checkPositiveInteger(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, `${label}: \`maxResponseBytes\``);
    if (options.toolFilter !== undefined) this.toolFilter = options.toolFilter;
    if (options.toolMetaResolver !== undefined) this.toolMetaResolver = options.toolMetaResolver;
    if (options.useStructuredContent !== undefined) this.useStructuredContent = options.useStructuredContent;
    if (options.errorFunction !== undefined) this.errorFunction = options.errorFunction;
    if (options.customDataExtractor !== undefined) {
      if (typeof options.customDataExtractor !== 'function') throw new UserError(`${label}: \`customDataExtractor\` must be a function, got ${typeof options.customDataExtractor}.`);
      this.customDataExtractor = options.customDataExtractor;
    }
    if (options.toolInputGuardrails !== undefined) this.toolInputGuardrails = options.toolInputGuardrails;
    if (options.toolOutputGuardrails !== undefined) this.toolOutputGuardrails = options.toolOutputGuardrails;
    if (options.requireApproval !== undefined) this.requireApproval = checkApprovalPolicy(options.requireApproval, label);
    this.logger = options.logger ?? getLogger(loggerName);
  }

  get name(): string {
    return this.#name;
  }

  /** Whether a session is open now (a run connects a server that is not, and closes it when the run ends). */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /**
   * The transport this server speaks over; a new one for every connection. An HTTP transport
   * fetches through `connection.fetch(...)`, which enforces `maxResponseBytes` and notices a
   * connection that dies mid-call.
   */
  protected abstract createTransport(connection: TransportConnection): Transport | Promise<Transport>;

  /** Tells the server the session is over (Streamable HTTP sends `DELETE`); bounded by `closeTimeoutMs`. */
  protected endSession(_transport: Transport): Promise<void> {
    return Promise.resolve();
  }

  /** Why the connection closed, from the last errors its transport reported (oldest first). */
  protected explainTransportErrors(errors: readonly Error[]): string {
    return `the connection closed after an error: ${errors.at(-1)!.message}`;
  }

  /**
   * What to do if closing takes longer than `closeTimeoutMs`, so nothing of the connection lingers
   * (asked before closing starts, while the transport still knows what it holds).
   */
  protected abandonment(_transport: Transport): () => void {
    return () => undefined;
  }

  /** Opens the session (a second call while connected does nothing). A failure closes what was started. */
  connect(): Promise<void> {
    if (this.#client) return Promise.resolve();
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #open(): Promise<void> {
    this.#listed = undefined;
    // The SDK loads on the first connect, so importing Baton (or defining servers) stays cheap.
    const { Client } = await import('@modelcontextprotocol/client');
    // The SDK walks a listing's pages itself (called without a cursor): its cap is this server's.
    const client = new Client({ name: this.#name, version: '1.0.0' }, { listMaxPages: this.maxListPages });
    let transport: Transport | undefined;
    try {
      transport = await this.createTransport(this.#connectionFor(client, () => transport));
      // Fails pending requests when the server goes away; the server is then disconnected. An error
      // the transport reported just before is why (the SDK's own message only says it closed).
      const errors: Error[] = [];
      client.onerror = (error) => {
        if (errors.push(error) > 8) errors.shift();
      };
      client.onclose = () => {
        if (this.#client !== client) return;
        if (errors.length > 0 && !this.#lost.has(client)) this.#lost.set(client, this.explainTransportErrors(errors));
        this.#forget();
      };
      // Bounded as a whole: starting a transport can wait on the server too (the legacy SSE
      // transport waits for the server to name its message endpoint).
      const timeoutMs = this.clientSessionTimeoutSeconds * 1000;
      await withDeadline(client.connect(transport, this.#sessionOptions()), timeoutMs, 'waiting for the server to open the session');
    } catch (error) {
      await closeQuietly(client, transport);
      throw new Error(`MCP server "${this.#name}" failed to connect: ${messageOf(error)}`, { cause: error });
    }
    this.#client = client;
    this.#transport = transport;
    this.logger.debug(`Connected to MCP server: ${this.#name}`);
  }

  /**
   * Ends the session and, for stdio, the server process. It waits at most `closeTimeoutMs` for the
   * server's part (a server that never answers the `DELETE`, a process that will not exit), then
   * cuts the connection, so a run that connected the server always ends.
   */
  async close(): Promise<void> {
    await this.#connecting?.catch(() => undefined);
    const client = this.#client;
    const transport = this.#transport;
    this.#forget();
    if (client && transport) await this.#shutDown(client, transport);
  }

  async #shutDown(client: Client, transport: Transport): Promise<void> {
    const deadline = Date.now() + this.closeTimeoutMs;
    const abandon = this.abandonment(transport);
    try {
      await withDeadline(this.endSession(transport), this.closeTimeoutMs, 'waiting for the server to end the session');
    } catch (error) {
      this.logger.warn(`MCP server "${this.#name}": ${messageOf(error)} The connection is closed anyway.`);
    }
    try {
      await withDeadline(closeQuietly(client, transport), Math.max(1, deadline - Date.now()), 'closing the connection');
    } catch (error) {
      this.logger.warn(`MCP server "${this.#name}": ${messageOf(error)} It is abandoned.`);
      abandon();
    }
  }

  /** What a new connection's transport reports to this server (ignored once that connection is gone). */
  #connectionFor(client: Client, transport: () => Transport | undefined): TransportConnection {
    return {
      fetch: (base, options) =>
        guardFetch(base ?? globalThis.fetch, { maxResponseBytes: this.maxResponseBytes, getStreamIsSession: options?.getStreamIsSession ?? false }, {
          requestFailed: (id, message) => {
            // Answered as the server would have: the SDK fails that request, the session goes on.
            transport()?.onmessage?.({ jsonrpc: '2.0', id, error: { code: CONNECTION_CLOSED, message } });
          },
          connectionLost: (reason) => {
            if (this.#client !== client) return;
            this.logger.warn(`MCP server "${this.#name}": ${reason}; the connection is closed.`);
            this.#lost.set(client, reason);
            this.#forget();
            void closeQuietly(client, transport());
          },
        }),
    };
  }

  #forget(): void {
    this.#client = undefined;
    this.#transport = undefined;
    this.#listed = undefined;
  }

  async listTools(): Promise<MCPTool[]> {
    const client = this.#session();
    if (this.cacheToolsList && this.#listed) return this.#listed;
    // Without a cursor the SDK gathers every page (ending at a repeated page), at most `maxListPages`.
    let tools: MCPTool[];
    try {
      tools = (await client.listTools({}, this.#sessionOptions())).tools as MCPTool[];
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== LIST_PAGINATION_EXCEEDED) throw error;
      throw new Error(`MCP server "${this.#name}" listed more than ${this.maxListPages} pages of tools (raise \`maxListPages\`).`, { cause: error });
    }
    if (this.#client === client) this.#listed = tools;
    return tools;
  }

  async callTool(
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
    options?: MCPCallToolOptions,
  ): Promise<CallToolResultContent> {
    const result = await this.callToolResult(toolName, args, meta, options);
    const content = [...result.content] as CallToolResultContent;
    if (result.structuredContent !== undefined) content.structuredContent = result.structuredContent;
    if (result.isError !== undefined) content.isError = result.isError;
    if (result._meta !== undefined) content._meta = result._meta;
    return content;
  }

  async callToolResult(
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
    options?: MCPCallToolOptions,
  ): Promise<CallToolResult> {
    const client = this.#session();
    const requestOptions: RequestOptions = { timeout: this.timeout };
    if (options?.signal) requestOptions.signal = options.signal;
    const params = { name: toolName, arguments: args ?? {}, ...(meta ? { _meta: meta } : {}) };
    let result: CallToolResult;
    try {
      result = (await client.callTool(params, requestOptions)) as CallToolResult;
    } catch (error) {
      const lost = this.#lost.get(client);
      throw lost === undefined ? error : new Error(`MCP server "${this.#name}": ${lost}`, { cause: error });
    }
    if (!Array.isArray(result.content)) throw new Error(`MCP server "${this.#name}" answered tool "${toolName}" without a content list.`);
    return result;
  }

  /** Forgets this server's listing here and in every agent's cache; the next run lists again. */
  async invalidateToolsCache(): Promise<void> {
    this.#listed = undefined;
    await invalidateServerToolsCache(this.#name);
  }

  /** The server's resources (one page; pass `nextCursor` back for the next). */
  async listResources(params: { cursor?: string } = {}) {
    return this.#session().listResources(params, this.#sessionOptions());
  }

  async listResourceTemplates(params: { cursor?: string } = {}) {
    return this.#session().listResourceTemplates(params, this.#sessionOptions());
  }

  async readResource(uri: string) {
    return this.#session().readResource({ uri }, this.#sessionOptions());
  }

  #session(): Client {
    if (!this.#client) throw new UserError(`MCP server "${this.#name}" is not connected: call connect() first (a run connects it for you).`);
    return this.#client;
  }

  #sessionOptions(): RequestOptions {
    return { timeout: this.clientSessionTimeoutSeconds * 1000 };
  }
}

/** The MCP SDK's `ErrorCode.ConnectionClosed` (not imported: the SDK loads on the first connect). */
const CONNECTION_CLOSED = -32000;
/** The MCP SDK's `SdkErrorCode.ListPaginationExceeded` (a listing past `listMaxPages`). */
const LIST_PAGINATION_EXCEEDED = 'LIST_PAGINATION_EXCEEDED';

/** Handed to `createTransport`: the guarded `fetch` an HTTP transport uses. */
export interface TransportConnection {
  /** `base` (or the global `fetch`) guarded for this connection; see `maxResponseBytes`. */
  fetch(base?: FetchLike, options?: Partial<Pick<FetchGuardOptions, 'getStreamIsSession'>>): FetchLike;
}

async function closeQuietly(client: Client, transport: Transport | undefined): Promise<void> {
  try {
    await client.close();
  } catch {
    // The session is gone either way; make sure the transport (and a stdio process) is too.
    await transport?.close().catch(() => undefined);
  }
}

function checkPositive(value: number, label: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new UserError(`${label} must be a positive number, got ${String(value)}.`);
  return value;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
