/**
 * Starting the example's other processes, worker processes and runs of the approval CLI, with
 * `startScriptProcess` from `@baton/testing` (Node itself with tsx's loader).
 */
import { join } from 'node:path';
import { startScriptProcess, type ScriptProcess } from '@baton/testing';

const appDir = join(import.meta.dirname, '..');

export interface WorkerProcess {
  readonly executorId: string;
  readonly pid: number;
  readonly process: ScriptProcess['process'];
  /** A crash: SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** A clean stop: SIGTERM, then SIGKILL after 10 s; resolved once the process is gone. */
  stop(): Promise<void>;
  readonly alive: boolean;
}

const script = (name: string) => join(appDir, 'src', name);

/** Starts a worker process and resolves once it serves the queue; its output lines go to `log`. */
export async function startWorkerProcess(executorId: string, env: Record<string, string>, log: (line: string) => void): Promise<WorkerProcess> {
  const worker = startScriptProcess({ script: script('worker.ts'), args: [executorId], cwd: appDir, env, onLine: (line) => line.trim() !== '' && log(line) });
  await worker.waitForLine(/^ready:/).catch(async (error: unknown) => {
    await worker.kill();
    throw error;
  });
  return {
    executorId,
    pid: worker.pid,
    process: worker.process,
    get alive() {
      return worker.alive;
    },
    kill: () => worker.kill(),
    stop: () => worker.stop(),
  };
}

export interface CliRun {
  readonly code: number | null;
  readonly output: string;
}

const cliRuns = new Set<ScriptProcess>();

/** Ends the CLI runs still going (when the example is stopped half-way). */
export function killCliRuns(): void {
  for (const cli of cliRuns) void cli.kill();
}

/** Runs the approval CLI (`src/approve.ts`) to its end, its output lines going to `log`. */
export async function runApprovalCli(args: string[], env: Record<string, string>, log: (line: string) => void): Promise<CliRun> {
  const cli = startScriptProcess({ script: script('approve.ts'), args, cwd: appDir, env, onLine: (line) => line.trim() !== '' && log(line) });
  cliRuns.add(cli);
  const timer = setTimeout(() => void cli.kill(), 60_000);
  const { code } = await cli.exited;
  clearTimeout(timer);
  cliRuns.delete(cli);
  return { code, output: cli.output().split('\n').filter((line) => line.trim() !== '').map((line) => `${line}\n`).join('') };
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
