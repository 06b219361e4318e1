import * as Effect from 'effect/Effect';
import type { MCPServer } from '@baton/types';
import { getLogger } from '../../../definitions/logger.js';

/** A connection some runs opened: it stays open while any of them is still going. */
interface Lease {
  holders: number;
  ready: Promise<void>;
  connecting: boolean;
}

/**
 * Runs that connected a server themselves, per server. Shared by every run in the process on
 * purpose: concurrent runs of agents that share a server object (defined once, used by every
 * request) share its connection, and the last of them to end closes it.
 */
const leases = new WeakMap<MCPServer, Lease>();

/**
 * The MCP servers one run connected itself (those that said `connected: false` when it needed
 * their tools). The run lets go of them when it ends, however it ends (a pause included); the last
 * run holding a server closes it, so no server process outlives the runs that started it. Servers
 * the caller connected stay the caller's to close.
 */
export class McpConnections {
  readonly #held = new Set<MCPServer>();

  /**
   * Connects the server when it says it is not connected, or joins the connection another run
   * opened. A connection that dropped (the server process died) is opened again.
   */
  ensure(server: MCPServer): Promise<void> {
    let lease = leases.get(server);
    if (!lease) {
      if (server.connected !== false) return Promise.resolve();
      lease = { holders: 0, ready: Promise.resolve(), connecting: false };
      leases.set(server, lease);
    }
    if (!this.#held.has(server)) {
      this.#held.add(server);
      lease.holders++;
    }
    if (!lease.connecting && server.connected === false) {
      const current = lease;
      current.connecting = true;
      current.ready = server.connect().finally(() => {
        current.connecting = false;
      });
    }
    return lease.ready;
  }

  /** Lets go of what this run holds, newest first; a failing close is logged, never the run's error. */
  readonly closeAll: Effect.Effect<void> = Effect.suspend(() => {
    const held = [...this.#held].reverse();
    this.#held.clear();
    const toClose = held.filter((server) => {
      const lease = leases.get(server);
      if (!lease || --lease.holders > 0) return false;
      leases.delete(server);
      return true;
    });
    return Effect.forEach(
      toClose,
      (server) =>
        Effect.tryPromise(() => server.close()).pipe(
          Effect.catch((error) => Effect.sync(() => getLogger('openai-agents:mcp').warn(`Closing MCP server "${server.name}" failed: ${String(error.cause ?? error)}`))),
        ),
      { discard: true },
    );
  });
}
