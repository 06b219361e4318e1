import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  readonly pid: number;
  readonly process: ChildProcess;
  /** Everything the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after a second; resolves once the process has exited. */
  close(): Promise<void>;
}

export interface ServerProcessOptions {
  command: string;
  args?: string[];
  /** Merged over this process's environment; `PORT` is set to a free port. */
  env?: Record<string, string>;
  /** How long to wait for the port to accept connections. Defaults to 15 s. */
  startTimeoutMs?: number;
}

/**
 * Starts a server process that listens on the port given in `PORT` (as the MCP reference servers
 * do) and resolves once the port accepts connections. A process that exits first, or never
 * listens, rejects with its stderr.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(options.command, options.args ?? [], {
    env: { ...process.env, ...options.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 1000);
      await exited;
      clearTimeout(killer);
    }
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${options.command} exited before listening on ${port}:\n${stderr}`);
    if (await accepts(port)) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`${options.command} did not listen on ${port} in time:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { origin: `http://127.0.0.1:${port}`, port, pid: child.pid!, process: child, stderr: () => stderr, close };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether a process with this id is still running. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
