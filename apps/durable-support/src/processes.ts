/**
 * Starting the example's other processes: worker processes and runs of the approval CLI. Each is
 * Node itself with tsx's loader (`node --import tsx src/worker.ts`), not the tsx CLI: the tsx CLI runs
 * the script in a child process of its own, which a SIGKILL of the CLI would leave running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const appDir = join(import.meta.dirname, '..');

export interface WorkerProcess {
  readonly executorId: string;
  readonly pid: number;
  readonly process: ChildProcess;
  /** A crash: SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** A clean stop: SIGTERM, then SIGKILL after 10 s; resolved once the process is gone. */
  stop(): Promise<void>;
  readonly alive: boolean;
}

function nodeWithTsx(script: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(appDir, 'src', script), ...args], {
    cwd: appDir,
    env: { ...process.env, NODE_NO_WARNINGS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function onLines(child: ChildProcess, line: (text: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const text of lines) if (text.trim() !== '') line(text);
    });
  }
}

/** Starts a worker process and resolves once it serves the queue; its output lines go to `log`. */
export async function startWorkerProcess(executorId: string, env: Record<string, string>, log: (line: string) => void): Promise<WorkerProcess> {
  const child = nodeWithTsx('worker.ts', [executorId], env);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`worker ${executorId} was not ready in 60 s:\n${output}`))), 60_000);
    onLines(child, (line) => {
      output += `${line}\n`;
      log(line);
      if (line.startsWith('ready:')) (clearTimeout(timer), resolve());
    });
    child.once('exit', (code, signal) => (clearTimeout(timer), reject(new Error(`worker ${executorId} exited (${code ?? signal}) before it was ready:\n${output}`))));
  });
  return {
    executorId,
    pid: child.pid!,
    process: child,
    get alive() {
      return !gone();
    },
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (gone()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface CliRun {
  readonly code: number | null;
  readonly output: string;
}

const cliRuns = new Set<ChildProcess>();

/** Ends the CLI runs still going (when the example is stopped half-way). */
export function killCliRuns(): void {
  for (const child of cliRuns) child.kill('SIGKILL');
}

/** Runs the approval CLI (`src/approve.ts`) to its end, its output lines going to `log`. */
export async function runApprovalCli(args: string[], env: Record<string, string>, log: (line: string) => void): Promise<CliRun> {
  const child = nodeWithTsx('approve.ts', args, env);
  cliRuns.add(child);
  child.once('exit', () => cliRuns.delete(child));
  let output = '';
  onLines(child, (line) => {
    output += `${line}\n`;
    log(line);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output };
}

/** Whether a process with this pid still exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
