import { getLogger } from '@baton/core';
import type { MCPServer } from '@baton/types';
import { messageOf } from './internal/clientServer.js';
import { withDeadline } from './internal/deadline.js';

export interface MCPServersOptions {
  /** Per server; `null` waits as long as it takes. Defaults to 10 000 ms. */
  connectTimeoutMs?: number | null;
  /** Per server; `null` waits as long as it takes. Defaults to 10 000 ms. */
  closeTimeoutMs?: number | null;
  /** Leave servers that failed to connect out of `active`. Defaults to `true`. */
  dropFailed?: boolean;
  /** Throw the first connection failure (after closing what was opened). Defaults to `false`. */
  strict?: boolean;
  /** Connect all at once rather than one after another. Defaults to `false`. */
  connectInParallel?: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const logger = getLogger('openai-agents:mcp-servers');

/**
 * A group of MCP servers opened together: `active` are those that connected (pass them to an
 * agent's `mcpServers`), `failed` and `errors` say which did not and why. `close()` closes them all,
 * last opened first; `await using servers = await connectMcpServers([...])` does it for you.
 */
export class MCPServers {
  readonly #all: MCPServer[];
  readonly #connected = new Set<MCPServer>();
  readonly #errors = new Map<MCPServer, Error>();
  readonly #options: Required<Omit<MCPServersOptions, 'connectTimeoutMs' | 'closeTimeoutMs'>> & { connectTimeoutMs: number | null; closeTimeoutMs: number | null };
  /** Lifecycle operations run one at a time, in the order they were asked for. */
  #tail: Promise<unknown> = Promise.resolve();

  private constructor(servers: MCPServer[], options: MCPServersOptions) {
    this.#all = [...new Set(servers)];
    this.#options = {
      connectTimeoutMs: options.connectTimeoutMs === undefined ? DEFAULT_TIMEOUT_MS : options.connectTimeoutMs,
      closeTimeoutMs: options.closeTimeoutMs === undefined ? DEFAULT_TIMEOUT_MS : options.closeTimeoutMs,
      dropFailed: options.dropFailed ?? true,
      strict: options.strict ?? false,
      connectInParallel: options.connectInParallel ?? false,
    };
  }

  static async open(servers: MCPServer[], options: MCPServersOptions = {}): Promise<MCPServers> {
    const group = new MCPServers(servers, options);
    await group.#enqueue(() => group.#connect(group.#all));
    return group;
  }

  get all(): MCPServer[] {
    return [...this.#all];
  }

  get active(): MCPServer[] {
    return this.#options.dropFailed ? this.#all.filter((s) => this.#connected.has(s)) : [...this.#all];
  }

  get failed(): MCPServer[] {
    return this.#all.filter((s) => this.#errors.has(s));
  }

  get errors(): ReadonlyMap<MCPServer, Error> {
    return new Map(this.#errors);
  }

  /** Tries the failed servers again (or, with `failedOnly: false`, closes and reopens all); returns `active`. */
  reconnect(options: { failedOnly?: boolean } = {}): Promise<MCPServer[]> {
    return this.#enqueue(async () => {
      const targets = options.failedOnly === false ? this.#all : this.failed;
      await this.#closeEach([...targets].reverse());
      await this.#connect(targets);
      return this.active;
    });
  }

  close(): Promise<void> {
    return this.#enqueue(() => this.#closeEach([...this.#all].reverse()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(operation, operation);
    this.#tail = result.catch(() => undefined);
    return result;
  }

  async #connect(servers: readonly MCPServer[]): Promise<void> {
    const attempt = async (server: MCPServer) => {
      try {
        await withDeadline(server.connect(), this.#options.connectTimeoutMs, `connecting MCP server "${server.name}"`);
        this.#connected.add(server);
        this.#errors.delete(server);
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        this.#errors.set(server, failure);
        logger.warn(failure.message.includes(server.name) ? failure.message : `MCP server "${server.name}" failed to connect: ${failure.message}`);
        // A connection that timed out may still be starting: make sure it does not linger.
        await withDeadline(server.close(), this.#options.closeTimeoutMs, `closing MCP server "${server.name}"`).catch(() => undefined);
        if (this.#options.strict) throw failure;
      }
    };
    try {
      if (this.#options.connectInParallel) {
        const outcomes = await Promise.allSettled(servers.map(attempt));
        const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
        if (rejected) throw rejected.reason;
      } else {
        for (const server of servers) await attempt(server);
      }
    } catch (error) {
      await this.#closeEach([...this.#all].reverse());
      throw error;
    }
  }

  async #closeEach(servers: readonly MCPServer[]): Promise<void> {
    for (const server of servers) {
      try {
        await withDeadline(server.close(), this.#options.closeTimeoutMs, `closing MCP server "${server.name}"`);
      } catch (error) {
        logger.warn(`MCP server "${server.name}" failed to close: ${messageOf(error)}`);
      } finally {
        this.#connected.delete(server);
      }
    }
  }
}

/** Connects the servers (see `MCPServers`), one after another unless `connectInParallel`. */
export function connectMcpServers(servers: MCPServer[], options?: MCPServersOptions): Promise<MCPServers> {
  return MCPServers.open(servers, options);
}
