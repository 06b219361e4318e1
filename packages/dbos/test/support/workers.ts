import { join } from 'node:path';
import { startScriptProcess, type ScriptProcess } from '@baton/testing';

export interface WorkerProcess {
  readonly executorId: string;
  readonly process: ScriptProcess['process'];
  /** A crash: SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** A clean stop: SIGTERM (SIGKILL after 10 s). */
  stop(): Promise<void>;
  output(): string;
}

const packageDir = join(import.meta.dirname, '..', '..');
const script = join(import.meta.dirname, '..', 'fixtures', 'workerProcess.ts');

/** Starts a worker process and resolves once it serves the queue. */
export async function startWorker(env: { DATABASE_URL: string; EXECUTOR_ID: string; APP_VERSION: string; ANSWER_DELAY_MS?: string; RENAME_REFUND?: string; RENAME_LOOKUP?: string }): Promise<WorkerProcess> {
  const worker = startScriptProcess({ script, cwd: packageDir, env });
  await worker.waitForLine(/^ready$/).catch(async (error: unknown) => {
    await worker.kill();
    throw error;
  });
  return { executorId: env.EXECUTOR_ID, process: worker.process, kill: () => worker.kill(), stop: () => worker.stop(), output: () => worker.output() };
}
