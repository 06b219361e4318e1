import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptProcess } from '@baton/testing';
import type { CrashWorkerJob } from './crashWorker.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..', '..');

/**
 * Starts a worker process on `job`, waits until it printed every marker in `killAfter` (it is then
 * halted at the last one), and kills it with SIGKILL: no finalizer, no release, its lease just
 * lapses. Resolves with the markers it printed. Fails if it exits by itself or takes too long.
 */
export async function killWorkerAt(job: CrashWorkerJob, killAfter: string[], timeoutMs = 30_000): Promise<string[]> {
  const markers: string[] = [];
  const stderr: string[] = [];
  let killed = false;
  const worker = startScriptProcess({
    script: join(here, 'crashWorker.ts'),
    cwd: packageDir,
    env: { BATON_CRASH_WORKER: JSON.stringify(job) },
    onLine: (line, stream) => {
      if (stream === 'stderr') return void stderr.push(line);
      markers.push(line);
      if (!killed && killAfter.every((wanted) => markers.some((marker) => marker.startsWith(wanted)))) {
        killed = true;
        void worker.kill();
      }
    },
  });
  const timer = setTimeout(() => void worker.kill(), timeoutMs);
  const { code, signal } = await worker.exited;
  clearTimeout(timer);
  if (killed && signal === 'SIGKILL') return markers;
  const why = signal === 'SIGKILL' ? 'timed out' : `exited by itself (code ${code}, signal ${signal})`;
  throw new Error(`worker ${why}; markers: ${markers.join(', ')}; stderr: ${stderr.join('\n')}`);
}
