import * as Effect from 'effect/Effect';
import type { MCPServer } from '@baton/types';
import { getLogger } from '../../logger.js';

/**
 * The MCP servers a run connected itself (those that said `connected: false` when it needed their
 * tools). The run closes them when it ends, however it ends (a pause included), so no server
 * process outlives the run; servers the caller connected stay the caller's to close.
 */
export class McpConnections {
  readonly #opened: MCPServer[] = [];
  readonly #connecting = new Map<MCPServer, Promise<void>>();

  /** Connects the server when it says it is not connected; concurrent callers share one attempt. */
  ensure(server: MCPServer): Promise<void> {
    if (server.connected !== false) return Promise.resolve();
    let attempt = this.#connecting.get(server);
    if (!attempt) {
      attempt = server.connect().then(
        () => {
          this.#opened.push(server);
          this.#connecting.delete(server);
        },
        (error: unknown) => {
          this.#connecting.delete(server);
          throw error;
        },
      );
      this.#connecting.set(server, attempt);
    }
    return attempt;
  }

  /** Closes what this run opened, newest first; a failing close is logged, never the run's error. */
  readonly closeAll: Effect.Effect<void> = Effect.suspend(() => {
    const opened = this.#opened.splice(0).reverse();
    if (opened.length === 0) return Effect.void;
    return Effect.forEach(
      opened,
      (server) =>
        Effect.tryPromise(() => server.close()).pipe(
          Effect.catch((error) => Effect.sync(() => getLogger('openai-agents:mcp').warn(`Closing MCP server "${server.name}" failed: ${String(error.cause ?? error)}`))),
        ),
      { discard: true },
    );
  });
}
