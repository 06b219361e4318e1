import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Transport } from '@modelcontextprotocol/client';
import { UserError } from '@baton/types';
import { ClientMCPServer, type MCPServerOptions } from './internal/clientServer.js';
import { tooLargeMessage } from './internal/guardedFetch.js';

interface StdioCommonOptions extends MCPServerOptions {
  /** The server process's environment; defaults to a safe subset of this process's (the MCP SDK's rule). */
  env?: Record<string, string>;
  cwd?: string;
  /** Where the server's stderr goes: `'inherit'` (default), `'pipe'` or `'ignore'`. */
  stderr?: 'inherit' | 'pipe' | 'ignore';
}

export interface DefaultMCPServerStdioOptions extends StdioCommonOptions {
  command: string;
  args?: string[];
}

export interface FullCommandMCPServerStdioOptions extends StdioCommonOptions {
  /** The command and its arguments in one string, split on spaces. */
  fullCommand: string;
}

export type MCPServerStdioOptions = DefaultMCPServerStdioOptions | FullCommandMCPServerStdioOptions;

/**
 * An MCP server started as a child process, spoken to over its stdin and stdout. `close()` (or the
 * end of a run that connected it) ends the process: stdin closed, then SIGTERM, then SIGKILL.
 */
export class MCPServerStdio extends ClientMCPServer {
  readonly command: string;
  readonly args: string[];
  readonly #options: StdioCommonOptions;
  #transport: StdioClientTransport | undefined;

  constructor(options: MCPServerStdioOptions) {
    if (typeof options !== 'object' || options === null) throw new UserError('MCPServerStdio: expected an options object.');
    const [command, ...args] =
      'fullCommand' in options && options.fullCommand !== undefined
        ? splitCommand(options.fullCommand)
        : [(options as DefaultMCPServerStdioOptions).command, ...((options as DefaultMCPServerStdioOptions).args ?? [])];
    if (typeof command !== 'string' || command.trim() === '') throw new UserError('MCPServerStdio: `command` (or `fullCommand`) must be a non-empty string.');
    if (!args.every((a) => typeof a === 'string')) throw new UserError('MCPServerStdio: `args` must be a list of strings.');
    super(options, `stdio: ${command}`, 'openai-agents:stdio-mcp-client');
    this.command = command;
    this.args = args;
    this.#options = options;
  }

  /** The server process's id while connected. */
  get pid(): number | undefined {
    return this.connected ? (this.#transport?.pid ?? undefined) : undefined;
  }

  protected async createTransport(): Promise<Transport> {
    const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/client/stdio');
    this.#transport = new StdioClientTransport({
      command: this.command,
      args: this.args,
      env: this.#options.env ?? getDefaultEnvironment(),
      ...(this.#options.cwd !== undefined ? { cwd: this.#options.cwd } : {}),
      stderr: this.#options.stderr ?? 'inherit',
      // The SDK's own bound on an unread line (one message), set to ours.
      maxBufferSize: this.maxResponseBytes ?? Number.MAX_SAFE_INTEGER,
    });
    return this.#transport;
  }

  /** The SDK closes the connection when a line outgrows its buffer: that is an answer past `maxResponseBytes`. */
  protected override explainTransportErrors(errors: readonly Error[]): string {
    const overflow = errors.some((error) => /ReadBuffer exceeded maximum size/.test(error.message));
    return overflow && this.maxResponseBytes !== null ? `${tooLargeMessage(this.maxResponseBytes)}; the connection is closed` : super.explainTransportErrors(errors);
  }

  /** A process that has not exited within `closeTimeoutMs` is killed. */
  protected override abandonment(transport: Transport): () => void {
    const pid = (transport as StdioClientTransport).pid;
    return () => {
      if (pid === null) return;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
  }
}

function splitCommand(fullCommand: string): string[] {
  if (typeof fullCommand !== 'string') throw new UserError('MCPServerStdio: `fullCommand` must be a string.');
  return fullCommand.split(' ').filter((part) => part !== '');
}
