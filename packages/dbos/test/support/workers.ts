import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface WorkerProcess {
  readonly executorId: string;
  readonly process: ChildProcess;
  /** A crash: SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** A clean stop: SIGTERM (SIGKILL after 10 s). */
  stop(): Promise<void>;
  output(): string;
}

const packageDir = join(import.meta.dirname, '..', '..');
const script = join(import.meta.dirname, '..', 'fixtures', 'workerProcess.ts');

/** Starts a worker process and resolves once it serves the queue. */
export async function startWorker(env: { DATABASE_URL: string; EXECUTOR_ID: string; APP_VERSION: string; ANSWER_DELAY_MS?: string; RENAME_REFUND?: string }): Promise<WorkerProcess> {
  // Node itself with tsx's loader (not the tsx CLI, which runs the script in a child process that a
  // SIGKILL of the CLI would leave running).
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: packageDir, env: { ...process.env, NODE_NO_WARNINGS: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker ${env.EXECUTOR_ID} not ready in 60 s:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready\n')) (clearTimeout(timer), resolve());
    });
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`worker ${env.EXECUTOR_ID} exited (${code}) before it was ready:\n${output}`))));
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    executorId: env.EXECUTOR_ID,
    process: child,
    output: () => output,
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
